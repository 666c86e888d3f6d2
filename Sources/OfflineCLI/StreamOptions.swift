import Foundation
import OfflineKit

/// The HLS options shared by `get` and `add`: what to select, and how often a piece of the
/// stream is tried again.
enum StreamOptions {
  /// The option names ``parse(_:_:into:usage:)`` takes.
  static let names: Set<String> = [
    "--variant", "--audio", "--subtitles", "--piece-retries", "--piece-retry-delay",
  ]

  static let help: [(String, String)] = [
    (
      "--variant <v>",
      "HLS: 'highest' (default), 'lowest', or a minimum bitrate in bits/s"
        + " (800000, 800k, 2M): the lowest variant at or above it, else the highest."
    ),
    ("--audio <a>", "HLS: audio languages (en,fr), 'default' (default) or 'all'."),
    ("--subtitles <s>", "HLS: subtitle languages (en,fr), 'none' (default) or 'all'."),
    (
      "--piece-retries <n>",
      "HLS: tries again of one playlist, segment or key that failed (403, 404, 408, 410,"
        + " 429, 5xx, a lost connection) before the download fails naming it (default 10)."
    ),
    (
      "--piece-retry-delay <s>",
      "HLS: seconds before a piece's first retry, doubled after each (default 1)."
    ),
  ]

  static func parse(_ name: String, _ value: String, into options: inout HLSOptions, usage: String)
    throws(UsageError)
  {
    switch name {
    case "--variant":
      guard let choice = HLSOptions.VariantChoice(argument: value) else {
        throw UsageError(
          message: "--variant takes 'highest', 'lowest' or a bitrate, not '\(value)'.", usage: usage
        )
      }
      options.variant = choice
    case "--audio":
      guard let choice = HLSOptions.RenditionChoice(argument: value), choice != .none else {
        throw UsageError(
          message: "--audio takes languages, 'default' or 'all', not '\(value)'.", usage: usage)
      }
      options.audio = choice
    case "--piece-retries":
      guard let count = Int(value), count >= 0 else {
        throw UsageError(
          message: "--piece-retries takes a whole number (0 or more), not '\(value)'.",
          usage: usage)
      }
      options.pieceRetries = count
    case "--piece-retry-delay":
      guard let seconds = Double(value), seconds.isFinite, seconds >= 0, seconds <= 3600 else {
        throw UsageError(
          message: "--piece-retry-delay takes seconds (0 to 3600), not '\(value)'.", usage: usage)
      }
      options.pieceRetryDelay = .milliseconds(Int64((seconds * 1000).rounded()))
    default:
      guard let choice = HLSOptions.RenditionChoice(argument: value), choice != .default else {
        throw UsageError(
          message: "--subtitles takes languages, 'none' or 'all', not '\(value)'.", usage: usage)
      }
      options.subtitles = choice
    }
  }
}
