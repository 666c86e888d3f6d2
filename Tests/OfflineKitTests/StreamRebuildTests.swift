import Foundation
import OfflineStore
import TestSupport
import TestTiming
import Testing

@testable import OfflineKit

/// A stream suspended partway, then its index lost: the suspend's manifest carries the
/// journal entries of its pieces, so after the rebuild a resume fetches only the pieces it
/// lacked. Pins issue 11, item 10 ("partial content can resume"). The stream is served from
/// memory, half its segments held at a gate until the suspend: no throttled origin.
@Suite(.enabled(if: FFmpeg.isAvailable), .timed)
struct StreamRebuildTests {
  /// With segments larger than a write buffer (files of their own) and with small ones (in
  /// a pack, whose place the manifest's journal entries carry too; more of them, so the
  /// stream is still downloading when it is suspended).
  @Test(arguments: [(HLSFixture.tsVariants, false, 12), (.manySegments, true, 80)])
  func aSuspendedStreamResumesAfterARebuildWithoutFetchingItsFinishedPiecesAgain(
    kind: HLSFixture, packed: Bool, segments: Int
  ) async throws {
    let origin = try await ScriptedStream.make(kind, segmentCount: segments, passing: segments / 2)
    var finished: Set<String> = []
    let lost = try await ManagerFixture.losingTheIndex(seed: 7, transport: origin.transport) {
      manager, store in
      let pieces = store.appending(path: "content/movie").path + "/"
      let content = try await manager.content(
        for: OfflineSource(url: origin.url, id: "movie", title: "Movie"))
      try await content.download(
        DownloadConfiguration(stream: StreamConfiguration(parallelSegments: 2)))
      try await manager.start()
      let index = try OfflineIndex(directory: store)
      func complete() throws -> [TransferRecord] {
        try index.transfers.all().filter {
          $0.destination.hasPrefix(pieces) && $0.phase == .complete
        }
      }
      #expect(try await eventually { try complete().count >= 2 })
      try await content.suspend()
      await manager.stop(suspendingRunning: false)
      #expect(try await content.state == .suspended)
      finished = Set(try complete().compactMap { URL(string: $0.url)?.path })
      #expect(try complete().allSatisfy { ($0.pack != nil) == packed }, "packed: \(packed)")
    }
    try #require(!finished.isEmpty)
    // The manager after the loss has fetched nothing yet: what is requested from here on is
    // the resume's.
    let requestsBefore = origin.transport.requests.count
    origin.stopHolding()
    let manager = lost.manager

    #expect(manager.rebuildReport?.restored.map(\.state) == [.suspended])
    let content = try await manager.content(id: "movie")
    try await content.resume()
    #expect(try await runUntilIdle(manager, timeout: .seconds(60)))
    let snapshot = try await content.snapshot
    #expect(snapshot.state == .downloaded)
    let later = origin.transport.requests.dropFirst(requestsBefore).map(\.url.path)
    let again = later.filter { finished.contains($0) }
    #expect(again.isEmpty, "fetched again: \(again) of \(finished.sorted())")
    #expect(later.contains { $0.hasSuffix(".ts") }, "nothing was left to fetch")
    let path = snapshot.fileURL.path
    #expect(try await FFmpeg.decode(path).errors.isEmpty)
  }
}
