import Foundation
import OfflineHTTP
import OfflineKit

extension GetCommand {
  /// This command with its Metalink (a local file, a URL ending in `.meta4` or `.metalink`,
  /// or one a plain file URL's answer named: ``urlIsMetalink``) turned into the download it
  /// describes: the best URL by priority, the
  /// others as mirrors, its SHA-256 (unless `--sha256` was given), its piece hashes and its
  /// size, and its file's safe name in the current folder or `-o`'s. Itself when it names
  /// no Metalink.
  ///
  /// - Throws: a sentence naming the Metalink when it cannot be read, is not a Metalink,
  ///   describes no single file with an http or https URL, or names a file outside the
  ///   output folder; nothing is written.
  func resolvingMetalink(host: CommandHost, transport: any HTTPTransporting)
    async throws(MetalinkPlan.Problem) -> GetCommand
  {
    let plan: MetalinkPlan
    switch target {
    case .metalinkFile(let path):
      let absolute = path.hasPrefix("/") ? path : host.workingDirectory.appending(path: path).path
      guard let data = FileManager.default.contents(atPath: absolute) else {
        throw MetalinkPlan.Problem(document: path, reason: "it cannot be read")
      }
      plan = try MetalinkPlan.read(data, document: path)
    case .url(let url):
      let session = ContentSession(
        url: url, transport: transport, requestOptions: requestOptions, retry: retryPolicy)
      guard MetalinkPlan.isMetalink(url) || urlIsMetalink else { return self }
      plan = try await MetalinkPlan.fetch(url, session: session)
    }
    var command = self
    command.url = plan.primary
    command.mirrors = plan.mirrors + mirrors
    command.sha256 = sha256 ?? plan.sha256
    command.metalink = plan
    return command
  }
}
