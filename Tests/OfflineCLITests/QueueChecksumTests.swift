import Foundation
import TestSupport
import TestTiming
import Testing

/// `offline run` when a queued file does not match its SHA-256 (issue 12, item 1: the
/// content now ends `notDownloaded`, as its bytes were thrown away, rather than
/// `suspended`): the run still fails, and `ls` says why.
@Suite(.ownThreads, .timed) struct QueueChecksumTests {
  @Test func aFileThatFailsItsChecksumFailsTheRunAndIsListedNotDownloadedWithTheError() async throws
  {
    let fixture = try QueueFixture()
    let id = try await fixture.addOne([
      fixture.url("small.bin"), "--sha256", String(repeating: "ab", count: 32),
    ])

    let run = try await fixture.offline(["run"], timeout: 40)

    #expect(run.status == 1, "\(run.stderrText)")
    #expect(run.stderrText.contains("SHA-256"), "\(run.stderrText)")
    let listed = try await #require(try fixture.entry(id))
    #expect(listed.state == "notDownloaded")
    #expect(
      listed.lastError?.description.contains("SHA-256") == true,
      "\(listed.lastError?.description ?? "none")")
  }
}
