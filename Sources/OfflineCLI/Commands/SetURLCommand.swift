import Foundation
import OfflineHTTP
import OfflineKit

/// `offline set-url ID URL`: replace the URL of a queued, downloading or suspended content
/// (a signed URL that expired); a running `offline run` goes on with it within a second.
struct SetURLCommand: Command {
  static let id: Argument<String> = .required(
    "id", help: "The content's id, as 'offline add' printed it or 'offline ls' lists it.",
    parser: .string)
  static let url: Argument<URL> = .required(
    "url", help: "The new http or https URL of the same resource.", parser: .httpURL)

  static let configuration = CommandConfiguration(
    name: "set-url",
    abstract: "Replace the URL of a queued, downloading or suspended content.",
    discussion: "A running 'offline run' goes on with the new URL within a second. The bytes on"
      + " disk are kept when the new URL serves the same resource (the same ETag, or the same"
      + " Last-Modified and length); otherwise the file starts over.",
    arguments: [id, url], command: Self.self)

  let id: String
  let url: URL

  init(_ arguments: ParsedArguments) {
    id = arguments[Self.id]
    url = arguments[Self.url]
  }

  func run(_ context: CommandContext) async -> Int32 {
    let command = self
    return await ManagerAccess.using(context) { manager throws(OfflineError) in
      try await manager.setURL(command.url, for: command.id)
      return ExitCode.success
    }
  }
}
