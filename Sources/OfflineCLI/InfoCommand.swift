import Foundation
import OfflineHTTP
import OfflineKit

/// `offline info`: what an HLS stream offers, before downloading it.
struct InfoCommand: Sendable {
  static let usage = "offline info <url> [--json]"

  static let help = HelpText(
    overview:
      "Show what an HLS stream or a DASH presentation offers: variants, audio, subtitles,"
      + " duration, encryption.",
    usage: usage,
    arguments: [
      ("<url>", "The http or https URL of an HLS playlist (.m3u8) or a DASH manifest (.mpd).")
    ],
    options: [
      ("--json", "Print one JSON object."),
      ("-h, --help", "Show help information."),
    ])

  var url: URL?
  var json = false
  var showHelp = false

  static func parse(_ arguments: [String]) throws(UsageError) -> InfoCommand {
    var scanner = ArgumentScanner(arguments, usage: usage)
    var command = InfoCommand()
    while let item = scanner.next() {
      switch item {
      case .positional(let text):
        guard command.url == nil, let url = URL(string: text),
          ["http", "https"].contains(url.scheme?.lowercased() ?? ""), url.host() != nil
        else { throw UsageError(message: "'\(text)' is not an http or https URL.", usage: usage) }
        command.url = url
      case .option(let name, _):
        switch name {
        case "--json": command.json = true
        case "-h", "--help":
          command.showHelp = true
          return command
        default: throw scanner.unknown(name)
        }
      }
    }
    guard command.url != nil else { throw UsageError(message: "Missing URL.", usage: usage) }
    return command
  }

  static func run(_ command: InfoCommand, context: CommandContext) async -> Int32 {
    let console = context.console
    guard !command.showHelp, let url = command.url else {
      console.out(help.render())
      return ExitCode.success
    }
    do throws(Transfer.Error) {
      if DASHDownload.isManifestURL(url) {
        let info = try await DASHInfo.fetch(url, transport: CurlTransport())
        console.out(command.json ? info.json : info.text(showing: TerminalText.escaped))
        return ExitCode.success
      }
      let info = try await HLSInfo.fetch(url, transport: CurlTransport())
      console.out(command.json ? info.json : info.text(showing: TerminalText.escaped))
      return ExitCode.success
    } catch {
      console.err("Error: " + TerminalText.message(error.description))
      return ExitCode.failure
    }
  }
}
