import Foundation
import OfflineHTTP
import OfflineStore
import TestSupport
import TestTiming
import Testing

@testable import OfflineKit

/// Downloads said to run at once do run at once: queued files, the ranges of one file, and
/// the pieces of a stream each move on a connection of their own (issue 11, item 7).
@Suite(.timed) struct ParallelDownloadTests {
  /// Pins issue 11, item 7: of three queued files from one rate-limited nginx, one moved
  /// while the others sat at 0 B (shown `running`); the third was requested only on the
  /// first one's connection once it was done.
  @Test func threeQueuedFilesFromARateLimitedOriginAllReceiveAtOnce() async throws {
    let size = 12 << 20
    let names = ["a.bin", "b.bin", "c.bin"]
    let origin = try await offPool {
      try ManagerOrigin(
        files: Dictionary(uniqueKeysWithValues: names.map { ($0, size) }),
        options: .init(limitRate: "10m", logsConnections: true))
    }
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
  /// The response is held before its head (a scripted origin) while the test looks, then at
  /// 64 KiB of its body, where bytes have come and the download is running.
  @Test func aDownloadIsStartingUntilItsFirstBytesComeThenRunning() async throws {
    let origin = ScriptedOrigin(files: ["late.bin": 2 << 20])
    let head = ScriptedGate()
    let body = HeldResponse()
    origin.transport.enqueue(
      origin.url("late.bin"),
      body.applied(to: ScriptedResponse.ok(origin.body("late.bin")!).held(by: head), at: 64 << 10))
    defer {
      head.open()
      body.open()
    }
    let fixture = try origin.fixture()
    let (content, recorder) = try await fixture.watched(origin.url("late.bin"), id: "late")
    try await content.download()

    try await fixture.running {
      #expect(await head.reached())
      let before = try await content.snapshot
      #expect(before.waitReason == .starting, "\(String(describing: before.waitReason))")
      #expect(before.bytes == 0)
      // Another process reads the index: the runner's next turn writes `starting` there.
      let elsewhere = try OfflineIndex(directory: fixture.store)
      #expect(
        await eventually {
          (try? elsewhere.contents.record(id: "late"))??.waitReason == .starting
        })
      head.open()
      #expect(await body.reached())
      #expect(await recorder.waitFor { ($0.progressBytes ?? 0) > 0 })
      #expect(try await content.snapshot.waitReason == nil, "running once bytes come")
      body.open()
      #expect(await recorder.waitFor { $0.name == "finished" })
    }
  }

  /// Item 7 asks that the ranges of one file still move together: four range requests in
  /// flight at once. Each range's response is held at 64 KiB (a scripted origin) until all
  /// four are there, which they can only be if they went at once; the connections on the
  /// wire are `SegmentedTransferTests.fourConnectionsFetchDisjointRangesIntoOneFile`'s.
  @Test func theRangesOfOneFileMoveAtOnce() async throws {
    let body = TestData.bytes(count: 24 << 20, seed: 77)
    let url = URL(string: "http://origin.test/big.bin")!
    let transport = ScriptedTransport()
    let resource = ScriptedResource(body)
    let gate = ScriptedGate()
    defer { gate.open() }
    transport.route(url) { request in
      let response = resource.response(to: request)
      // The probe of the range support (one byte) passes.
      return response.body.count > 1 ? response.held(by: gate, atOffset: 64 << 10) : response
    }
    let fixture = try TransferFixture(transport: transport)
    let running = Task {
      try await fixture.transfer(url, configuration: .quick { $0.connections = .fixed(4) }).run()
    }

    #expect(await gate.reached(4), "four ranges were fetched at once")
    #expect(transport.inFlight >= 4)
    gate.open()
    let outcome = try await running.value
    #expect(fileData(outcome.destination) == body)
    let ranged = transport.requests.filter { $0.range != nil && $0.range != "bytes=0-0" }
    #expect(Set(ranged.compactMap(\.rangeStart)).count >= 4, "\(ranged.map(\.range))")
    #expect(transport.mostInFlight >= 4)
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
