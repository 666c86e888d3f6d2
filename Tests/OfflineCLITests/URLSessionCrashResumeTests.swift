import Foundation
import TestSupport
import TestTiming
import Testing

/// `offline get` on URLSessionTransport (`OFFLINEKIT_TRANSPORT=urlsession`, issue 18, item
/// 2). Its runs killed at random moments are in `KilledRunTests`.
@Suite(.ownThreads, .timed) struct URLSessionCrashResumeTests {
  static let environment = ProcessInfo.processInfo.environment.merging(
    ["OFFLINEKIT_TRANSPORT": "urlsession"]) { $1 }

  @Test func anUnknownTransportIsAUsageErrorNamingTheVariable() async throws {
    let setup = try GetCommandTests.Setup(size: 1000)
    var environment = Self.environment
    environment["OFFLINEKIT_TRANSPORT"] = "carrier-pigeon"
    let result = try await InProcessOffline.run(
      ["get", setup.nginx.url("/file.bin").absoluteString], store: setup.store, in: setup.out,
      environment: environment)
    #expect(result.status == 64)
    #expect(result.stderrText.contains("OFFLINEKIT_TRANSPORT"))
    #expect(try setup.nginx.accessLog().isEmpty, "nothing fetched")
  }
}
