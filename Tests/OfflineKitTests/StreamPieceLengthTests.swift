import Foundation
import OfflineHTTP
import OfflineStore
import TestSupport
import TestTiming
import Testing

@testable import OfflineKit

/// A stream piece's response record must say how long the piece is, since the batched
/// `complete` record may be lost in a kill (issue 14, HLS CPU: `CompletionBatch`).
@Suite(.timed) struct StreamPieceLengthTests {
  /// Pins a gap the batching opened: a piece sent without `Content-Length` (chunked) left a
  /// response record without a length, so a kill after its rename but before its batch was
  /// written made the next run fetch it again.
  @Test func aChunkedPieceRenamedBeforeItsBatchWasWrittenIsNotFetchedAgain() async throws {
    let server = try FaultServer()
    defer { server.stop() }
    let body = "0123456789abcdef0123456789abcdef"
    let reply =
      "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
      + "20\r\n\(body)\r\n0\r\n\r\n"
    server.setRoute("/s0.ts", .raw(Data(reply.utf8)))
    let store = try TemporaryDirectory()
    let index = try OfflineIndex(directory: store.url.appending(path: "store"))
    let destination = store.url.appending(path: "content/s0.ts").path
    var options = Transfer.Configuration(
      computesSHA256: true, replacesExistingFile: true, syncsEachFile: false)
    options.hashesChunks = false
    let session = ContentSession(url: server.url("/s0.ts"), transport: CurlTransport())
    // Its `complete` record waits for a batch that is never flushed: what a kill right after
    // the rename leaves.
    func transfer() -> Transfer {
      Transfer(
        url: session.url, destination: destination, journal: index.transfers, session: session,
        configuration: options,
        role: .queuedFile(
          Transfer.QueuedFile(
            completions: CompletionBatch(journal: index.transfers),
            responses: ResponseRecordBatch(journal: index.transfers))))
    }
    let first = try await transfer().run()
    #expect(first.length == Int64(body.utf8.count))
    let left = try #require(try index.transfers.record(forDestination: destination))
    #expect(left.phase == .active)
    #expect(left.totalLength == Int64(body.utf8.count))

    let second = try await transfer().run()
    #expect(second.wasAlreadyComplete)
    #expect(server.requests(for: "/s0.ts").count == 1, "fetched once")
    #expect(FileManager.default.contents(atPath: destination) == Data(body.utf8))
  }
}
