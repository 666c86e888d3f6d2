import Foundation
import TestSupport
import Testing

/// `offline get` on URLSessionTransport (`OFFLINEKIT_TRANSPORT=urlsession`), killed with
/// SIGKILL at random moments: every rerun resumes and the file ends byte-identical
/// (issue 18, item 2).
@Suite(.ownThreads) struct URLSessionCrashResumeTests {
  static let environment = ProcessInfo.processInfo.environment.merging(
    ["OFFLINEKIT_TRANSPORT": "urlsession"]) { $1 }

  @Test func randomKillsOfAURLSessionDownloadLoseNothing() async throws {
    let size = 32 << 20
    let setup = try GetCommandTests.Setup(size: size, options: .init(limitRate: "16m"))
    let arguments = try await setup.verifiedGet()
    let kills = try await OfflineBinary.killRepeatedly(
      arguments + ["--quiet"], store: setup.store, times: 6, pause: 150_000...400_000,
      environment: Self.environment)
    #expect(kills >= 4)

    let last = try await ProcessRunner.run(
      OfflineBinary.path, ["--store", setup.store.path] + arguments + ["--json"], timeout: 120,
      environment: Self.environment)
    #expect(last.status == 0, "\(last.stderrText)")
    #expect(FileManager.default.contents(atPath: setup.output) == setup.body)
    let log = try await setup.nginx.accessLog(minimumCount: 2)
    #expect(log.dropFirst().contains { $0.range != nil }, "a rerun resumed with Range")
  }

  @Test func anUnknownTransportIsAUsageErrorNamingTheVariable() async throws {
    let setup = try GetCommandTests.Setup(size: 1000)
    var environment = Self.environment
    environment["OFFLINEKIT_TRANSPORT"] = "carrier-pigeon"
    let result = try await ProcessRunner.run(
      OfflineBinary.path,
      ["--store", setup.store.path, "get", setup.nginx.url("/file.bin").absoluteString],
      environment: environment)
    #expect(result.status == 64)
    #expect(result.stderrText.contains("OFFLINEKIT_TRANSPORT"))
    #expect(try setup.nginx.accessLog().isEmpty, "nothing fetched")
  }
}
