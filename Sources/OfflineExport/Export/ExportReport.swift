import Foundation

/// What an export wrote, once it is in place and verified.
public struct ExportReport: Sendable, Equatable {
  /// One track of the file written.
  public struct Track: Sendable, Equatable {
    /// The kind of media a track carries.
    public enum Kind: String, Sendable, Equatable {
      /// Pictures.
      case video
      /// Sound.
      case audio
      /// Text or bitmap subtitles.
      case subtitle
    }

    /// The kind of media.
    public var kind: Kind
    /// The codec as libav names it, such as `h264` or `aac`.
    public var codec: String
    /// The track's language (ISO 639-2, as the container stores it), when known.
    public var language: String?
    /// Whether players choose this track by default.
    public var isDefault: Bool
    /// Compressed packets copied.
    public var packets: Int
    /// Payload bytes copied.
    public var bytes: Int64
    /// Audio packets left out at discontinuities, where the part before had audio past its
    /// video that the next part's audio overlaps (kept, they would have pushed the audio
    /// later at every discontinuity); players drop them the same way.
    public var droppedAtDiscontinuities: Int

    /// Creates a track description.
    public init(
      kind: Kind, codec: String, language: String?, isDefault: Bool, packets: Int, bytes: Int64,
      droppedAtDiscontinuities: Int = 0
    ) {
      self.kind = kind
      self.codec = codec
      self.language = language
      self.isDefault = isDefault
      self.packets = packets
      self.bytes = bytes
      self.droppedAtDiscontinuities = droppedAtDiscontinuities
    }
  }

  /// What the check after writing found; an export that fails it throws instead.
  public struct Verification: Sendable, Equatable {
    /// Packets read back from the new file and matched with the offline copy's, all tracks.
    public var packetsCompared: Int
    /// The new file's duration minus the playlist's, in seconds.
    public var durationDifference: Double
    /// The most the durations may differ by: one segment's duration, in seconds.
    public var durationTolerance: Double

    /// Creates a verification result.
    public init(packetsCompared: Int, durationDifference: Double, durationTolerance: Double) {
      self.packetsCompared = packetsCompared
      self.durationDifference = durationDifference
      self.durationTolerance = durationTolerance
    }
  }

  /// The file written.
  public var destination: URL
  /// Its container.
  public var format: ExportFormat
  /// Its tracks, in the file's order.
  public var tracks: [Track]
  /// Its duration in seconds, as the container states it.
  public var duration: Double
  /// The playlist's duration in seconds.
  public var expectedDuration: Double
  /// Its size in bytes.
  public var bytes: Int64
  /// Timestamp discontinuities stitched into one timeline.
  public var discontinuities: Int
  /// What the check after writing found.
  public var verification: Verification
  /// The `.vtt` file written beside it (``StreamExport/writesSubtitleSidecar``), if one was.
  public var subtitleSidecar: URL? = nil

  /// Creates a report.
  public init(
    destination: URL, format: ExportFormat, tracks: [Track], duration: Double,
    expectedDuration: Double, bytes: Int64, discontinuities: Int, verification: Verification
  ) {
    self.destination = destination
    self.format = format
    self.tracks = tracks
    self.duration = duration
    self.expectedDuration = expectedDuration
    self.bytes = bytes
    self.discontinuities = discontinuities
    self.verification = verification
  }
}
