import Foundation
import OfflineLocks
import OfflineStore
import TestSupport
import TestTiming
import Testing

@testable import OfflineKit

/// The content API as an app meets it: values checked when they are made, a wait for the
/// download that ends, streams that end when the manager closes. Pins issue 12, item 1.
@Suite(.timed) struct ContentAPITests {
  /// Pins issue 12: a checksum of `"…"` was accepted and failed later, as an event.
  @Test func aMalformedChecksumIsRefusedWhenTheConfigurationIsMade() throws {
    for text in ["…", "", "abc", String(repeating: "g", count: 64)] {
      let error = #expect(throws: OfflineError.self) {
        try DownloadConfiguration(expectedSHA256: text)
      }
      guard case .invalidChecksum = error?.kind else {
        Issue.record("\(text): \(String(describing: error))")
        continue
      }
      #expect(error?.description.contains("64 hexadecimal digits") == true)
      #expect(throws: OfflineError.self) { try Transfer.Configuration(expectedSHA256: text) }
    }
    let upper = String(repeating: "AB", count: 32)
    #expect(try DownloadConfiguration(expectedSHA256: upper).expectedSHA256 == upper.lowercased())
    #expect(try Transfer.Configuration(expectedSHA256: upper).expectedSHA256 == upper.lowercased())
    #expect(try DownloadConfiguration(expectedSHA256: nil).expectedSHA256 == nil)
  }

  /// A caller holding only an id (a command line, a request of `offline serve`) gets a typed
  /// error naming it, written once in the library instead of in every command and route.
  @Test func anExistingContentIsFoundAndAnUnknownIDIsATypedError() async throws {
    let fixture = try ManagerFixture()
    _ = try await fixture.manager.content(
      for: OfflineSource(url: URL(string: "http://127.0.0.1:9/a.bin")!, id: "a"))
    #expect(try await fixture.manager.content(id: "a").id == "a")
    let error = await #expect(throws: OfflineError.self) {
      try await fixture.manager.content(id: "nosuch")
    }
    guard case .unknownContent("nosuch") = error?.kind else {
      Issue.record("\(String(describing: error))")
      return
    }
  }

  /// Issue 38, item 4: a stream's options were stored under `hls` for DASH too; they are
  /// stored under `stream` now, and what earlier versions stored still reads.
  @Test func streamOptionsAreStoredUnderStreamAndReadUnderTheEarlierName() throws {
    let earlier = #"{"hls":{"parallelSegments":3}}"#
    let decoded = try JSONDecoder().decode(
      DownloadConfiguration.Stored.self, from: Data(earlier.utf8))
    #expect(decoded.stream.parallelSegments == 3)
    let written = String(decoding: try JSONEncoder().encode(decoded), as: UTF8.self)
    #expect(written.contains(#""stream":{"#) && !written.contains("hls"), "\(written)")
    let back = try JSONDecoder().decode(DownloadConfiguration.Stored.self, from: Data(written.utf8))
    #expect(back == decoded)
  }

  @Test func connectionsAreStoredAsTheNumbersEarlierVersionsWrote() throws {
    let earlier = #"{"connections":0,"hls":{"parallelSegments":3}}"#
    let decoded = try JSONDecoder().decode(
      DownloadConfiguration.Stored.self, from: Data(earlier.utf8))
    #expect(decoded.connections == .adaptive)
    for (choice, number) in [
      (Transfer.Connections.adaptive, 0), (.single, 1), (.fixed(1), 1), (.fixed(4), 4),
    ] {
      let text = String(decoding: try JSONEncoder().encode([choice]), as: UTF8.self)
      #expect(text == "[\(number)]", "\(choice)")
      let back = try JSONDecoder().decode([Transfer.Connections].self, from: Data(text.utf8))
      #expect(back == [choice.normalized])
    }
    #expect(DownloadConfiguration(connections: .fixed(1)).connections == .single)
  }

  @Test func eventsAreMadeAtOnceAndStartWithTheCurrentState() async throws {
    let fixture = try ManagerFixture()
    let content = try await fixture.manager.content(
      for: OfflineSource(url: URL(string: "http://127.0.0.1:9/a.bin")!, id: "a"))
    try await content.download()
    let stream = content.events  // no await: the subscription exists from here on
    try await content.suspend()
    var events = stream.makeAsyncIterator()
    #expect(await events.next()?.name == "state:downloading")
    #expect(await events.next()?.name == "state:suspended")
  }

  @Test func waitingForTheDownloadReturnsTheFileOnceItIsThere() async throws {
    let origin = try ManagerOrigin()
    let fixture = try ManagerFixture()
    let content = try await fixture.manager.content(
      for: OfflineSource(url: origin.url("file.bin"), id: "file"))
    try await content.download()
    try await fixture.manager.start()

    let file = try await content.waitUntilDownloaded()

    #expect(FileManager.default.contents(atPath: file.path) == origin.body("file.bin"))
    #expect(try await content.waitUntilDownloaded() == file, "at once when downloaded")
    await fixture.manager.close()
  }

  @Test func waitingForAContentThatIsNotQueuedThrowsAtOnce() async throws {
    let fixture = try ManagerFixture()
    let content = try await fixture.manager.content(
      for: OfflineSource(url: URL(string: "http://127.0.0.1:9/a.bin")!, id: "a"))
    let error = await #expect(throws: OfflineError.self) {
      _ = try await content.waitUntilDownloaded()
    }
    guard case .notQueued = error?.kind else {
      Issue.record("\(String(describing: error))")
      return
    }
  }

  @Test func waitingForADownloadThatIsCanceledThrowsCanceled() async throws {
    let server = try FaultServer()
    defer { server.stop() }
    let body = TestData.bytes(count: 4 << 20, seed: 5)
    server.setRoute(
      "/slow.bin", .resource(.init(body: body, faults: .init(bytesPerSecond: 256 << 10))))
    let fixture = try ManagerFixture()
    let (content, recorder) = try await fixture.watched(server.url("/slow.bin"), id: "slow")
    try await content.download()
    try await fixture.manager.start()
    let wait = Task { try await content.waitUntilDownloaded() }
    #expect(await recorder.waitFor { ($0.progressBytes ?? 0) > 0 })

    try await content.cancel()

    let result = await wait.result
    guard case .failure(let error) = result, case .canceled? = (error as? OfflineError)?.kind
    else {
      Issue.record("\(result)")
      return
    }
    await fixture.manager.close()
  }

  /// Pins issue 12: there was no way to close the manager, so a `for await` over a
  /// content's events never ended.
  @Test func closeEndsEveryStreamAndTheWaitsOnThem() async throws {
    let server = try FaultServer()
    defer { server.stop() }
    let body = TestData.bytes(count: 8 << 20, seed: 6)
    server.setRoute(
      "/slow.bin", .resource(.init(body: body, faults: .init(bytesPerSecond: 256 << 10))))
    let fixture = try ManagerFixture()
    let content = try await fixture.manager.content(
      for: OfflineSource(url: server.url("/slow.bin"), id: "slow"))
    let ended = Locked(0)
    let recorder = EventRecorder(content.events)
    let loops = [content.events, content.events].map { stream in
      Task {
        for await _ in stream {}
        ended.withLock { $0 += 1 }
      }
    }
    let all = Task {
      for await _ in fixture.manager.allEvents() {}
      ended.withLock { $0 += 1 }
    }
    try await content.download()
    try await fixture.manager.start()
    let wait = Task { try await content.waitUntilDownloaded() }
    #expect(await recorder.waitFor { ($0.progressBytes ?? 0) > 0 })

    await fixture.manager.close()

    #expect(await eventually { ended.withLock { $0 } == 3 }, "every stream ended")
    let result = await wait.result
    guard case .failure(let error) = result, case .closed? = (error as? OfflineError)?.kind
    else {
      Issue.record("\(result)")
      return
    }
    #expect(try await content.state == .downloading, "it continues on the next run")
    #expect(try await content.snapshot.bytes > 0)
    var late = content.events.makeAsyncIterator()
    #expect(await late.next()?.name == "state:downloading")
    #expect(await late.next() == nil, "a stream made after close ends after the state")
    await #expect(throws: OfflineError.self) { try await fixture.manager.start() }
    _ = loops
    _ = all
  }

  /// Pins issue 12, item 3: a row the index cannot read (a wait reason this version does
  /// not know) made a stream start with `notDownloaded`, as if nothing were there.
  @Test func aContentTheIndexCannotReadGivesAnErrorNotAState() async throws {
    let fixture = try ManagerFixture()
    let content = try await fixture.manager.content(
      for: OfflineSource(url: URL(string: "http://127.0.0.1:9/a.bin")!, id: "a"))
    try await content.download()
    try OfflineIndex(directory: fixture.store).database.execute(
      "UPDATE contents SET wait_reason = 'paused' WHERE id = 'a'")

    var events = content.events.makeAsyncIterator()
    guard case .finished(.failure(let error)) = await events.next(), case .index = error.kind
    else {
      Issue.record("the stream did not start with the index's error")
      return
    }
    #expect(error.description.contains("wait_reason"), "\(error)")
    #expect(await events.next() == nil)
    await #expect(throws: OfflineError.self) { try await content.snapshot }
  }

  /// Pins issue 12, item 3: options the index holds but this version cannot read were
  /// replaced by the defaults (`DownloadConfiguration.stored(from:)`), so the download ran with
  /// choices nobody made.
  @Test func aDownloadWhoseOptionsCannotBeReadIsSuspendedWithTheErrorNotRunWithDefaults()
    async throws
  {
    let origin = try ManagerOrigin()
    let fixture = try ManagerFixture()
    let (content, recorder) = try await fixture.watched(origin.url("file.bin"), id: "file")
    try await content.download()
    try OfflineIndex(directory: fixture.store).database.execute(
      #"UPDATE contents SET options = '{"hls":5}' WHERE id = 'file'"#)

    try await fixture.running {
      #expect(await recorder.waitFor { $0.name == "state:suspended" })
    }

    let snapshot = try await content.snapshot
    #expect(snapshot.state == .suspended)
    #expect(
      snapshot.lastError?.description.contains("hls") == true,
      "\(snapshot.lastError?.description ?? "none")")
    #expect(try await origin.nginx.accessLog(minimumCount: 0).isEmpty, "nothing was fetched")
  }
}
