import OfflineKit

/// The HLS selection options shared by `get` and `add`.
enum StreamOptions {
  static let help: [(String, String)] = [
    (
      "--variant <v>",
      "HLS: 'highest' (default), 'lowest', or a minimum bitrate in bits/s"
        + " (800000, 800k, 2M): the lowest variant at or above it, else the highest."
    ),
    ("--audio <a>", "HLS: audio languages (en,fr), 'default' (default) or 'all'."),
    ("--subtitles <s>", "HLS: subtitle languages (en,fr), 'none' (default) or 'all'."),
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
    default:
      guard let choice = HLSOptions.RenditionChoice(argument: value), choice != .default else {
        throw UsageError(
          message: "--subtitles takes languages, 'none' or 'all', not '\(value)'.", usage: usage)
      }
      options.subtitles = choice
    }
  }
}
