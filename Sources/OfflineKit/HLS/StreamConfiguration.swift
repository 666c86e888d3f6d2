/// Which parts of an HLS stream to make available offline, and how fast.
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
  /// Segments downloaded at once.
  public var parallelSegments: Int
  /// How many more times one piece of the stream (a media playlist, a segment, an init
  /// section, a key) is tried in the same run after it failed with 403, 404, 408, 410, 429,
  /// a 5xx or connection trouble, before the run fails naming it. 0 gives up at the first
  /// such failure.
  public var pieceRetries: Int
  /// The wait before a piece's first retry; it doubles after each retry, up to
  /// ``HLSPieceRetry/maximumDelay``. A `Retry-After` the server sends is honoured up to the
  /// same cap.
  public var pieceRetryDelay: Duration

  /// Creates options; by default the highest variant, the default audio, no subtitles, 8
  /// segments at once, and 10 retries of each piece starting one second apart.
  public init(
    variant: VariantChoice = .highest, audio: RenditionChoice = .default,
    subtitles: RenditionChoice = .none, parallelSegments: Int = 8, pieceRetries: Int = 10,
    pieceRetryDelay: Duration = .seconds(1)
  ) {
    self.variant = variant
    self.audio = audio
    self.subtitles = subtitles
    self.parallelSegments = max(1, parallelSegments)
    self.pieceRetries = max(0, pieceRetries)
    self.pieceRetryDelay = max(.zero, pieceRetryDelay)
  }

  private enum CodingKeys: String, CodingKey {
    case variant, audio, subtitles, parallelSegments, pieceRetries, pieceRetryDelay
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
        ?? defaults.pieceRetryDelay)
  }
}
