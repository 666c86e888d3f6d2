import Foundation
import OfflineLocks
import TestSupport
import TestTiming
import Testing

@testable import OfflineKit

/// A verify honours its caller's cancellation (issue 38, item 2). Before, it read in a
/// detached task that never saw the cancel, and went on to the last byte.
@Suite(.timed) struct VerifyCancelTests {
  @Test func aCancelledVerifyStopsWithinAChunkAndSaysNothingOfTheFile() async throws {
    let origin = ScriptedOrigin(files: ["big.bin": 24 << 20])  // six 4 MiB chunks
    let fixture = try origin.fixture()
    let (content, _) = try await fixture.startDownload(of: origin, "big.bin", id: "big")
    #expect(try await runUntilIdle(fixture.manager))
    try #require(try await content.state == .downloaded)

    let reads = Locked<[Int64]>([])
    let caller = Locked<Task<VerifyReport, any Error>?>(nil)
    let (start, go) = AsyncStream.makeStream(of: Void.self)
    let verifying = Task { () async throws -> VerifyReport in
      for await _ in start { break }  // once `caller` is set
      return try await content.verify { read, _ in
        reads.withLock { $0.append(read) }
        caller.withLock { $0 }?.cancel()  // the caller gives up after the first chunk
      }
    }
    caller.withLock { $0 = verifying }
    go.yield()
    let result = await verifying.result

    guard case .failure(let error) = result else {
      Issue.record("a cancelled verify returned a report: \(result)")
      return
    }
    #expect((error as? OfflineError)?.code == .closed, "\(error)")
    #expect(reads.withLock { $0 } == [4 << 20], "read on after the cancel")
  }
}
