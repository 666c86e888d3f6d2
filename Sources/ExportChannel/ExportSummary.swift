/// What an export wrote, once it is in place and verified: `OfflineExport`'s report, as
/// `offline-export` hands it to `offline`.
public struct ExportSummary: Sendable, Equatable, Codable {
  /// One track of the file.
  public struct Track: Sendable, Equatable, Codable {
    /// `video`, `audio` or `subtitle`.
    public var kind: String
    /// The codec as libav names it, such as `h264` or `aac`.
    public var codec: String
    /// The track's language (ISO 639-2), when known.
    public var language: String?
    /// Whether players choose the track by default.
    public var isDefault: Bool
    /// Compressed packets copied.
    public var packets: Int
    /// Payload bytes copied.
    public var bytes: Int64

    /// Describes a track.
    public init(
      kind: String, codec: String, language: String?, isDefault: Bool, packets: Int, bytes: Int64
    ) {
      self.kind = kind
      self.codec = codec
      self.language = language
      self.isDefault = isDefault
      self.packets = packets
      self.bytes = bytes
    }
  }

  /// The file written: an absolute path.
  public var output: String
  /// Its container: `mp4` or `mkv`.
  public var format: String
  /// Its size in bytes.
  public var bytes: Int64
  /// Its duration in seconds, as the container states it.
  public var duration: Double
  /// The playlist's duration in seconds.
  public var expectedDuration: Double
  /// Timestamp discontinuities stitched into one timeline.
  public var discontinuities: Int
  /// Its tracks, in the file's order.
  public var tracks: [Track]
  /// Packets read back from the file and matched with the offline copy's, all tracks.
  public var packetsCompared: Int
  /// The `.vtt` file written beside it, if one was: an absolute path.
  public var subtitleSidecar: String?

  /// Describes a file written.
  public init(
    output: String, format: String, bytes: Int64, duration: Double, expectedDuration: Double,
    discontinuities: Int, tracks: [Track], packetsCompared: Int, subtitleSidecar: String? = nil
  ) {
    self.output = output
    self.format = format
    self.bytes = bytes
    self.duration = duration
    self.expectedDuration = expectedDuration
    self.discontinuities = discontinuities
    self.tracks = tracks
    self.packetsCompared = packetsCompared
    self.subtitleSidecar = subtitleSidecar
  }
}
