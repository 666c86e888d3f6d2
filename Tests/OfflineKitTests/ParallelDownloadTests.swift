import Foundation
import OfflineHTTP
import OfflineStore
import TestSupport
import Testing

@testable import OfflineKit

/// Downloads said to run at once do run at once: queued files, the ranges of one file, and
/// the pieces of a stream each move on a connection of their own (issue 11, item 7).
@Suite struct ParallelDownloadTests {
  /// Pins issue 11, item 7: of three queued files from one rate-limited nginx, one moved
  /// while the others sat at 0 B (shown `running`); the third was requested only on the
  /// first one's connection once it was done.
  @Test func threeQueuedFilesFromARateLimitedOriginAllReceiveAtOnce() async throws {
    let size = 12 << 20
    let names = ["a.bin", "b.bin", "c.bin"]
    let origin = try ManagerOrigin(
      files: Dictionary(uniqueKeysWithValues: names.map { ($0, size) }),
      options: .init(limitRate: "10m", logsConnections: true))
    let fixture = try ManagerFixture(parallelDownloads: 3)
    var recorders: [EventRecorder] = []
    for name in names {
      let (_, recorder) = try await fixture.startDownload(
        of: origin, name, id: name.prefix(1) + "x")
      recorders.append(recorder)
    }
    let seen = try await fixture.running { () async throws -> [Int64] in
      // Once one of them is halfway, every one must have bytes.
      let halfway = await eventually(timeout: .seconds(60)) {
        recorders.contains { $0.events.contains { ($0.progressBytes ?? 0) >= Int64(size / 2) } }
      }
      #expect(halfway)
      let seen = recorders.map { $0.events.compactMap(\.progressBytes).max() ?? 0 }
      let finished = await eventually(timeout: .seconds(60)) {
        recorders.allSatisfy { $0.names.contains("finished") }
      }
      #expect(finished)
      return seen
    }

    #expect(seen.allSatisfy { $0 > 0 }, "bytes per file when the first was halfway: \(seen)")
    let log = try await origin.nginx.accessLog(minimumCount: 3).filter { $0.status == 200 }
    #expect(log.count == 3)
    #expect(Set(log.compactMap(\.connection)).count == 3, "one connection per file")
    #expect(log.allSatisfy { $0.connectionRequests == 1 }, "none waited for another's connection")
    #expect(log.mostAtOnce == 3, "all three requests overlapped: \(log)")
    for name in names {
      let stored = try await fixture.manager.snapshot(id: name.prefix(1) + "x")
      #expect(stored.state == .downloaded)
      #expect(FileManager.default.contents(atPath: stored.fileURL.path) == origin.body(name))
    }
  }

  /// Pins issue 11, item 7: `ls` said `running` for downloads that had not received a byte;
  /// until the first bytes come the reason is `starting`, then it is cleared (`running`).
  @Test func aDownloadIsStartingUntilItsFirstBytesComeThenRunning() async throws {
    let server = try FaultServer()
    defer { server.stop() }
    let body = TestData.bytes(count: 2 << 20, seed: 78)
    let paced = FaultServer.Resource(body: body, faults: .init(bytesPerSecond: 1 << 20))
    server.setRoute("/late.bin", .delayed(seconds: 2, then: .resource(paced)))
    let fixture = try ManagerFixture()
    let (content, recorder) = try await fixture.watched(server.url("/late.bin"), id: "late")
    try await content.download()

    try await fixture.running {
      let starting = await eventually { server.requests(for: "/late.bin").count == 1 }
      #expect(starting)
      let before = try await content.snapshot
      #expect(before.waitReason == .starting, "\(String(describing: before.waitReason))")
      #expect(before.bytes == 0)
      #expect(await recorder.waitFor { ($0.progressBytes ?? 0) > 0 })
      #expect(try await content.snapshot.waitReason == nil, "running once bytes come")
      #expect(await recorder.waitFor { $0.name == "finished" })
    }
  }

  /// Item 7 asks that the ranges of one file still move together: four connections, four
  /// overlapping range requests, each on its own connection.
  @Test func theRangesOfOneFileMoveAtOnce() async throws {
    let root = try TemporaryDirectory(prefix: "offlinekit-www")
    let body = TestData.bytes(count: 24 << 20, seed: 77)
    try body.write(to: root.file("big.bin"))
    let nginx = try NginxServer(
      root: root.url, options: .init(limitRate: "4m", logsConnections: true))
    try nginx.start()
    let fixture = try TransferFixture()
    let outcome = try await fixture.transfer(
      nginx.url("/big.bin"), configuration: .quick { $0.connections = .fixed(4) }
    ).run()

    #expect(fileData(outcome.destination) == body)
    let ranged = try await nginx.accessLog(minimumCount: 5).filter {
      $0.status == 206 && $0.range != "bytes=0-0"
    }
    #expect(Set(ranged.compactMap(\.connection)).count >= 4, "\(ranged)")
    #expect(ranged.mostAtOnce >= 4, "four ranges were fetched at once: \(ranged)")
  }

  /// Item 7 asks that the pieces of a stream still move eight at once on one transport.
  @Test(.enabled(if: FFmpeg.isAvailable))
  func eightPiecesOfAStreamMoveAtOnce() async throws {
    let stream = try await HLSOrigin(
      .manySegments, segmentCount: 24, options: .init(limitRate: "4k", logsConnections: true))
    let store = try TemporaryDirectory()
    let index = try OfflineIndex(directory: store.url.appending(path: "store"))
    let download = HLSDownload(
      url: stream.url, folder: store.url.appending(path: "content"),
      configuration: StreamConfiguration(parallelSegments: 8), journal: index.transfers,
      transport: CurlTransport())
    _ = try await download.run()

    let pieces = try stream.nginx.accessLog().filter { !$0.uri.hasSuffix(".m3u8") }
    #expect(pieces.count >= 24)
    #expect(pieces.mostAtOnce >= 8, "eight pieces were fetched at once")
    #expect(Set(pieces.compactMap(\.connection)).count >= 8)
  }
}
