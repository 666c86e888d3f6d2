import Foundation
import OfflineHTTP
import OfflineKit

extension AddCommand {
  /// This command with its one URL, when that names a Metalink (`.meta4` or `.metalink`),
  /// turned into the download it describes, as `get` reads one: the best URL by priority
  /// queued, the others kept with it as its mirrors (as `--mirror` is kept), its SHA-256
  /// kept as the one the file must have (unless `--sha256` was given), its piece hashes and
  /// size kept in the store (each piece checked as it lands, in whichever process runs it),
  /// and its file's name (the last component, made safe) the content's. Itself otherwise.
  ///
  /// A plain URL is queued as it is, without a request: `add` asks nothing of the network.
  /// A queued file whose first answer is a Metalink, or names one, is re-planned from it by
  /// the queue when it runs, as `get` does (`OfflineManager`'s `replan(_:with:)`).
  ///
  /// - Throws: a sentence naming the Metalink when it cannot be fetched, is not a Metalink,
  ///   describes no single file with an http or https URL, or names a file outside the
  ///   output folder; nothing is queued.
  func resolvingMetalink(environment: [String: String]) async throws(MetalinkPlan.Problem)
    -> AddCommand
  {
    guard input == nil, urls.count == 1, let url = URL(string: urls[0]), url.isHTTPWithHost,
      MetalinkPlan.isMetalink(url)
    else { return self }
    let transport = CurlTransport(
      configuration: .init(
        trustedCAFile: requestOptions.caFile, proxy: requestOptions.proxy,
        noProxy: requestOptions.noProxy.map { NoProxyList(parsing: $0.joined(separator: ",")) },
        environment: CurlEnvironment(environment)))
    let session = ContentSession(
      url: url, transport: transport, requestOptions: requestOptions, retry: RetryPolicy())
    let plan = try await MetalinkPlan.fetch(url, session: session)
    var command = self
    command.urls = [plan.primary.absoluteString]
    command.mirrors = plan.mirrors + mirrors
    command.sha256 = sha256 ?? plan.sha256
    command.metalink = plan
    return command
  }
}
