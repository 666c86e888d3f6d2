import Foundation
import OfflineHTTP
import OfflineKit

/// `offline info`: what an HLS stream offers, before downloading it.
struct InfoCommand: Command {
  static let url: Argument<URL> = .required(
    "url", noun: "URL", help: "The http or https URL of an HLS playlist (.m3u8).",
    parser: .httpURL)
  static let json: Option<Bool> = .flag("--json", help: "Print one JSON object.")

  static let configuration = CommandConfiguration(
    name: "info",
    abstract: "Show what an HLS stream offers: variants, audio, subtitles, duration, encryption.",
    arguments: [url], options: [json] + RequestOptionArguments.all, command: Self.self)

  let url: URL
  let json: Bool
  let requestOptions: RequestOptions

  init(_ arguments: ParsedArguments) throws(UsageError) {
    url = arguments[Self.url]
    json = arguments[Self.json]
    requestOptions = try RequestOptionArguments.requestOptions(from: arguments)
  }

  func run(_ context: CommandContext) async -> Int32 {
    let console = context.console
    do throws(Transfer.Error) {
      let info = try await HLSInfo.fetch(
        url, transport: CurlTransport(), requestOptions: requestOptions)
      console.out(json ? info.json : info.text(showing: TerminalText.escaped))
      return ExitCode.success
    } catch {
      console.err("Error: " + TerminalText.message(error.description))
      return ExitCode.failure
    }
  }
}
