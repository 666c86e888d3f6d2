import Foundation
import OfflineKit

/// The HLS options shared by `get` and `add`: what to select, and how often a piece of the
/// stream is tried again.
enum StreamOptions {
  static let variant: Option<StreamConfiguration.VariantChoice?> = .value(
    "--variant", valueName: "v",
    help: "HLS: 'highest' (default), 'lowest', or a minimum bitrate in bits/s (800000, 800k,"
      + " 2M): the lowest variant at or above it, else the highest.",
    parser: .variant)
  static let audio: Option<StreamConfiguration.RenditionChoice?> = .value(
    "--audio", valueName: "a", help: "HLS: audio languages (en,fr), 'default' (default) or 'all'.",
    parser: .rendition(["default", "all"], refusing: .none))
  static let subtitles: Option<StreamConfiguration.RenditionChoice?> = .value(
    "--subtitles", valueName: "s",
    help: "HLS: subtitle languages (en,fr), 'none' (default) or 'all'.",
    parser: .rendition(["none", "all"], refusing: .default))
  static let pieceRetries: Option<Int?> = .value(
    "--piece-retries", valueName: "n",
    help: "HLS: tries again of one playlist, segment or key that failed (403, 404, 408, 410,"
      + " 429, 5xx, a lost connection) before the download fails naming it (default 10)."
      + " With get --refresh-command, a 401, 403 or 410 asks for a fresh URL at once instead.",
    parser: .integer(atLeast: 0))
  static let pieceRetryDelay: Option<Duration?> = .value(
    "--piece-retry-delay", valueName: "s",
    help: "HLS: seconds before a piece's first retry, doubled after each (default 1).",
    parser: .seconds(upTo: 3600))

  static let maxConnections: Option<Int?> = .value(
    "--max-connections", valueName: "n",
    help: "HLS, DASH: at most n connections to the origin for a stream's segments over"
      + " HTTP/1.1 (default: up to 16, added while they still raise the speed). HTTP/2 sends"
      + " them all on one connection.",
    parser: .integer(atLeast: 1))

  static let segmentFiles: Option<Bool> = .flag(
    "--segment-files",
    help: "HLS: a file for each media segment. By default unencrypted segments that fit in"
      + " 128 KiB go into one file per playlist (pack.ts), which the offline playlist"
      + " addresses by byte range.")

  static let fromStart: Option<Bool> = .flag(
    "--from-start",
    help: "Live HLS, DASH: record from the oldest segment still in the playlist or the MPD's"
      + " time-shift window (default: the live edge, three segment durations from its end,"
      + " as players start).")
  static let recordFor: Option<Duration?> = .value(
    "--record-for", valueName: "duration",
    help: "Live HLS, DASH: stop once this much is recorded (90, 45s, 20m, 1h30m), counted in"
      + " recorded media, so a rerun after a stop goes on counting.",
    parser: .duration)
  static let liveOffset: Option<Duration?> = .value(
    "--live-offset", valueName: "duration",
    help: "Live HLS, DASH: start this far behind the live edge instead (45s, 2m): at the last"
      + " segment that begins at least this long before the end of the playlist or the MPD's"
      + " window. Not with --from-start.",
    parser: .duration)
  static let endAfter: Option<Duration?> = .value(
    "--end-after", valueName: "duration",
    help: "Live HLS, DASH: take the stream as ended when its playlist or MPD still answers but"
      + " brings no new segment for this long (default: six target durations); a playlist"
      + " that fails is waited for longer, as an origin may come back.",
    parser: .duration(aboveZero: true))
  static let recordUntil: Option<Date?> = .value(
    "--record-until", valueName: "time",
    help: "Live HLS, DASH: stop at this time (18:30 local, or 2026-12-07T18:30:00Z).",
    parser: .wallTime)

  /// The declarations, for a command's configuration.
  static let all: [any OptionDeclaring] = [
    variant, audio, subtitles, pieceRetries, pieceRetryDelay, maxConnections, segmentFiles,
    fromStart, liveOffset, recordFor, recordUntil, endAfter,
  ]

  /// The stream options given, over the library's defaults.
  ///
  /// - Throws: ``UsageError`` for `--from-start` with `--live-offset`: two starts.
  static func hls(from arguments: ParsedArguments) throws(UsageError) -> StreamConfiguration {
    var options = StreamConfiguration()
    if let variant = arguments[StreamOptions.variant] { options.variant = variant }
    if let audio = arguments[StreamOptions.audio] { options.audio = audio }
    if let subtitles = arguments[StreamOptions.subtitles] { options.subtitles = subtitles }
    if let count = arguments[StreamOptions.pieceRetries] { options.pieceRetries = count }
    if let delay = arguments[StreamOptions.pieceRetryDelay] { options.pieceRetryDelay = delay }
    if let count = arguments[StreamOptions.maxConnections] { options.maxConnections = count }
    if arguments[StreamOptions.segmentFiles] { options.packsSmallSegments = false }
    if arguments[StreamOptions.fromStart] { options.live.start = .fromStart }
    if let offset = arguments[StreamOptions.liveOffset] {
      guard options.live.start == .liveEdge else {
        throw UsageError("--live-offset and --from-start name two starts; give one.")
      }
      options.live.start = .secondsBack(offset.inSeconds)
    }
    options.live.endAfterSilence = arguments[StreamOptions.endAfter]
    options.live.recordFor = arguments[StreamOptions.recordFor]
    options.live.recordUntil = arguments[StreamOptions.recordUntil]
    return options
  }
}
