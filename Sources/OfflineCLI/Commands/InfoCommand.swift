import Foundation
import OfflineHTTP
import OfflineKit

/// `offline info`: what an HLS stream offers, before downloading it; or, given a content's
/// id, that content (`InfoCommand+Content.swift`).
struct InfoCommand: Command {
  static let url: Argument<InfoTarget> = .required(
    "url", noun: "URL",
    help: "The http or https URL of an HLS playlist (.m3u8) or a DASH manifest (.mpd); or the"
      + " id of a content in the store, to show its state and, for a live recording, its"
      + " recorded duration, segments and gaps.",
    parser: .urlOrContentID)
  static let json: Option<Bool> = .flag("--json", help: "Print one JSON object.")

  static let configuration = CommandConfiguration(
    name: "info",
    abstract: "Show what an HLS stream or a DASH presentation offers: variants, audio,"
      + " subtitles, duration, encryption.",
    arguments: [url], options: [json] + RequestOptionArguments.all, command: Self.self)

  let target: InfoTarget
  let json: Bool
  let requestOptions: RequestOptions

  init(_ arguments: ParsedArguments) throws(UsageError) {
    target = arguments[Self.url]
    json = arguments[Self.json]
    requestOptions = try RequestOptionArguments.requestOptions(from: arguments)
  }

  func run(_ context: CommandContext) async -> Int32 {
    let url: URL
    switch target {
    case .url(let given): url = given
    case .content(let id): return await showContent(id, context)
    }
    let console = context.console
    // Proxy and CA variables come from the run's environment, not the process's.
    let transport = CurlTransport(
      configuration: .init(environment: CurlEnvironment(context.host.environment)))
    do throws(Transfer.Error) {
      if DASHDownload.isManifestURL(url) {
        let info = try await DASHInfo.fetch(
          url, transport: transport, requestOptions: requestOptions)
        console.out(json ? info.json : info.text(showing: TerminalText.escaped))
        return ExitCode.success
      }
      let info = try await HLSInfo.fetch(
        url, transport: transport, requestOptions: requestOptions)
      console.out(json ? info.json : info.text(showing: TerminalText.escaped))
      return ExitCode.success
    } catch {
      console.err("Error: " + TerminalText.message(error.description))
      return ExitCode.failure
    }
  }
}
