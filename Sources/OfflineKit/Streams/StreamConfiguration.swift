/// Which parts of a stream (HLS or DASH) to make available offline, and how fast.
///
/// The choices follow what commercial player SDKs offer: a variant by `highest`, `lowest`, or
/// a minimum bitrate (the lowest variant at or above it, else the highest); audio and
/// subtitle renditions by language, the default one, all, or (subtitles) none.
public struct StreamConfiguration: Sendable, Equatable, Codable {
  /// How the video variant is chosen.
  public enum VariantChoice: Sendable, Equatable, Codable {
    /// The variant with the highest `BANDWIDTH`.
    case highest
    /// The variant with the lowest `BANDWIDTH`.
    case lowest
    /// The lowest variant whose `BANDWIDTH` is at least this many bits per second, else the
    /// highest.
    case minimumBitrate(Int)
  }

  /// How audio or subtitle renditions are chosen.
  public enum RenditionChoice: Sendable, Equatable, Codable {
    /// Those whose `LANGUAGE` matches one of these (`en` matches `en-US`), in this order;
    /// the default one when none matches.
    case languages([String])
    /// The one marked `DEFAULT=YES` (else the first).
    case `default`
    /// Every rendition of the variant's group.
    case all
    /// None.
    case none
  }

  /// The video variant.
  public var variant: VariantChoice
  /// The audio renditions.
  public var audio: RenditionChoice
  /// The subtitle renditions.
  public var subtitles: RenditionChoice
  /// Segments downloaded at once at the start. From the first response on, the number
  /// adapts (see ``maxConnections``): up to 64 streams on one HTTP/2 connection, up to 16
  /// HTTP/1.1 connections while each step still raises the throughput, and half as many
  /// after a 429 or 503.
  public var parallelSegments: Int
  /// The most connections to the origin at once for the stream's pieces on HTTP/1.1 (where
  /// each piece in flight takes one); nil lets it grow to 16. HTTP/2 multiplexes every piece
  /// on one connection, so this does not cap its streams.
  public var maxConnections: Int?
  /// How many more times one piece of the stream (a media playlist, a segment, an init
  /// section, a key) is tried in the same run after it failed with 403, 404, 408, 410, 429,
  /// a 5xx or connection trouble, before the run fails naming it. 0 gives up at the first
  /// such failure.
  public var pieceRetries: Int
  /// The wait before a piece's first retry; it doubles after each retry, up to
  /// 10 seconds. A `Retry-After` the server sends is honoured up to the
  /// same cap.
  public var pieceRetryDelay: Duration
  /// Whether media segments that arrive whole within one write buffer (128 KiB) are
  /// written into one pack per media playlist (`pack.ts`, say), which the offline playlist
  /// addresses with `EXT-X-BYTERANGE`, instead of a file each. A file per segment cost a
  /// create and a rename in a folder of thousands of names; players read byte ranges as
  /// they read files. Larger segments, init sections, subtitles and encrypted segments keep
  /// their files either way. On by default.
  public var packsSmallSegments: Bool
  /// How a live stream is recorded (where it starts, when it stops); a VOD stream ignores
  /// it. From the live edge until the stream ends by default.
  public var live = LiveRecordingOptions()

  /// Creates options; by default the highest variant, the default audio, no subtitles, 8
  /// segments at once to start with (then adapting, see ``parallelSegments``), and 10
  /// retries of each piece starting one second apart.
  public init(
    variant: VariantChoice = .highest, audio: RenditionChoice = .default,
    subtitles: RenditionChoice = .none, parallelSegments: Int = 8, pieceRetries: Int = 10,
    pieceRetryDelay: Duration = .seconds(1), maxConnections: Int? = nil,
    packsSmallSegments: Bool = true
  ) {
    self.variant = variant
    self.audio = audio
    self.subtitles = subtitles
    self.parallelSegments = max(1, parallelSegments)
    self.pieceRetries = max(0, pieceRetries)
    self.pieceRetryDelay = max(.zero, pieceRetryDelay)
    self.maxConnections = maxConnections.map { max(1, $0) }
    self.packsSmallSegments = packsSmallSegments
  }

  private enum CodingKeys: String, CodingKey {
    case variant, audio, subtitles, parallelSegments, pieceRetries, pieceRetryDelay
    case maxConnections, packsSmallSegments, live
  }

  /// Decodes options; fields that an earlier version did not store take their defaults.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let defaults = StreamConfiguration()
    self.init(
      variant: try container.decodeIfPresent(VariantChoice.self, forKey: .variant)
        ?? defaults.variant,
      audio: try container.decodeIfPresent(RenditionChoice.self, forKey: .audio) ?? defaults.audio,
      subtitles: try container.decodeIfPresent(RenditionChoice.self, forKey: .subtitles)
        ?? defaults.subtitles,
      parallelSegments: try container.decodeIfPresent(Int.self, forKey: .parallelSegments)
        ?? defaults.parallelSegments,
      pieceRetries: try container.decodeIfPresent(Int.self, forKey: .pieceRetries)
        ?? defaults.pieceRetries,
      pieceRetryDelay: try container.decodeIfPresent(Duration.self, forKey: .pieceRetryDelay)
        ?? defaults.pieceRetryDelay,
      maxConnections: try container.decodeIfPresent(Int.self, forKey: .maxConnections),
      packsSmallSegments: try container.decodeIfPresent(Bool.self, forKey: .packsSmallSegments)
        ?? defaults.packsSmallSegments)
    live = try container.decodeIfPresent(LiveRecordingOptions.self, forKey: .live) ?? defaults.live
  }

  /// These options with at most `cap` connections (``maxConnections``); nil changes nothing.
  public func cappingConnections(at cap: Int?) -> StreamConfiguration {
    guard let cap else { return self }
    var options = self
    options.maxConnections = max(1, min(cap, maxConnections ?? .max))
    return options
  }

  /// The bounds of how many pieces go at once (see ``PieceConcurrency``).
  var pieceConcurrency: PieceConcurrency.Configuration {
    PieceConcurrency.Configuration(start: parallelSegments, maxConnections: maxConnections)
  }
}
