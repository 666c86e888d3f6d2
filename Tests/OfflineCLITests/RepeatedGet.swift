import Foundation
import TestSupport
import Testing

/// The second half of every "run the same `get` again" test: with the origin back up, the
/// same command says "Already complete" and sends not one request more.
enum RepeatedGet {
  /// Starts `nginx` again, runs `offline --store store get url -o out`, and expects exit 0,
  /// "Already complete" and no request beyond the `requests` the first run made.
  static func expectFetchesNothing(
    nginx: NginxServer, requests: Int, store: String, url: String, out: String,
    sourceLocation: SourceLocation = #_sourceLocation
  ) async throws {
    try nginx.start()
    let again = try await OfflineBinary.run(["--store", store, "get", url, "-o", out])
    #expect(again.status == 0, "\(again.stderrText)", sourceLocation: sourceLocation)
    #expect(
      again.stderrText.contains("Already complete"), "\(again.stderrText)",
      sourceLocation: sourceLocation)
    #expect(try nginx.accessLog().count == requests, sourceLocation: sourceLocation)
  }
}
