import Foundation
import OfflineLocks
import TestSupport
import TestTiming
import Testing

@testable import OfflineKit
@testable import offline_examples

/// One event per change (issue 37, item 4): a suspend, a resume, a finish, a cancel and a
/// failure each give one `changed` (a cancel two: canceling at once, notDownloaded once its
/// data is deleted), and every attempt ends in one `finished`. Before, each transition sent
/// `stateChanged` and then `suspended`, `resumed`, `finished` or `canceled` as well, and a
/// failure sent `error` and then `suspended`.
@Suite(.timed) struct EventCountTests {
  /// The names of the events that are not progress, in order.
  static func changes(_ recorder: EventRecorder) -> [String] {
    recorder.names.filter { $0 != "progress" }
  }

  /// A 1 MiB file whose download is queued and watched, its response held at 64 KiB.
  static func heldDownload() async throws -> (
    ScriptedOrigin, HeldResponse, ManagerFixture, OfflineContent, EventRecorder
  ) {
    let origin = ScriptedOrigin(files: ["file.bin": 1 << 20])
    let gate = origin.holding("file.bin")
    let fixture = try origin.fixture()
    let (content, recorder) = try await fixture.startDownload(of: origin, "file.bin", id: "file")
    return (origin, gate, fixture, content, recorder)
  }

  /// A suspend and a resume of `content` while its response is held at `gate`, then its
  /// finish.
  static func suspendResumeAndFinish(
    _ content: OfflineContent, at gate: HeldResponse, _ recorder: EventRecorder,
    in fixture: ManagerFixture
  ) async throws {
    try await fixture.running {
      #expect(await gate.reached())
      try await content.suspend()
      #expect(await recorder.waitFor { $0.name == "state:suspended" })
      try await content.resume()
      #expect(await recorder.waitFor { $0.name == "finished" })
    }
  }

  @Test func aSuspendAResumeAndAFinishAreOneEventEachAndTheAttemptEndsOnce() async throws {
    let (origin, gate, fixture, content, recorder) = try await Self.heldDownload()
    try await Self.suspendResumeAndFinish(content, at: gate, recorder, in: fixture)
    #expect(
      Self.changes(recorder) == [
        "state:notDownloaded", "state:downloading", "state:suspended", "state:downloading",
        "state:downloaded", "finished",
      ])
    guard case .finished(.success(let url))? = recorder.events.last else {
      Issue.record("the attempt did not end with the file: \(recorder.names)")
      return
    }
    #expect(url == fixture.file("file.bin", of: "file"))
    #expect(FileManager.default.contents(atPath: url.path) == origin.body("file.bin"))
    let downloaded = recorder.events.compactMap(\.snapshot).last
    #expect(downloaded?.state == .downloaded && downloaded?.bytes == 1 << 20)
  }

  @Test func aCancelIsItsTwoChangesAndEndsTheAttemptCanceled() async throws {
    let (_, gate, fixture, content, recorder) = try await Self.heldDownload()
    try await fixture.running {
      #expect(await gate.reached())
      try await content.cancel()
      #expect(await recorder.waitFor { $0.name == "canceled" })
    }
    #expect(
      Self.changes(recorder) == [
        "state:notDownloaded", "state:downloading", "state:canceling", "state:notDownloaded",
        "canceled",
      ])
    let last = recorder.events.compactMap(\.snapshot).last
    #expect(last?.bytes == 0 && last?.lastError == nil)
  }

  @Test func aFailureIsOneChangeThatCarriesTheErrorAndEndsTheAttemptWithIt() async throws {
    let (_, _, recorder) = try await ScriptedOrigin.failedDownload()
    #expect(
      Self.changes(recorder) == [
        "state:notDownloaded", "state:downloading", "state:suspended", "error",
      ])
    let suspended = try #require(recorder.events.compactMap(\.snapshot).last)
    #expect(suspended.lastError?.code == .httpStatus && suspended.lastError?.httpStatus == 404)
    guard case .finished(.failure(let error))? = recorder.events.last else {
      Issue.record("no failure at the end: \(recorder.names)")
      return
    }
    #expect(error.httpStatus == 404)
    #expect(error.description == suspended.lastError?.description)
  }

  /// A resume the origin answers with the whole file (it ignores ranges) starts over from
  /// byte zero, and subscribers hear why. Before, the manager kept the transfer's
  /// `restarted` to itself.
  @Test func aResumeAnsweredWithTheWholeFileSaysItRestarted()
    async throws
  {
    let (origin, gate, fixture, content, recorder) = try await Self.heldDownload()
    let body = try #require(origin.body("file.bin"))
    try await fixture.running {
      #expect(await gate.reached())
      try await content.suspend()
      #expect(await recorder.waitFor { $0.name == "state:suspended" })
      origin.transport.enqueue(origin.url("file.bin"), .ok(body))
      try await content.resume()
      #expect(await recorder.waitFor { $0.name == "finished" })
    }
    #expect(
      Self.changes(recorder) == [
        "state:notDownloaded", "state:downloading", "state:suspended", "state:downloading",
        "restarted", "state:downloaded", "finished",
      ])
    let events = recorder.events
    let restart = try #require(events.firstIndex { $0.name == "restarted" })
    guard case .restarted(.rangesIgnored) = events[restart] else {
      Issue.record("restarted for another reason: \(events[restart])")
      return
    }
    #expect(try await content.snapshot.bytes == 1 << 20)
  }

  /// A consumer that reads nothing while a 200-item queue runs (as one that sleeps 2 s per
  /// event would) then reads, for every content, its queueing, its finish and the end of
  /// its attempt, in order: nothing but progress is dropped or merged.
  @Test func aConsumerThatFallsBehindSeesEveryChangeOfA200ItemQueue() async throws {
    let names = (0..<200).map { "f\($0).bin" }
    let origin = ScriptedOrigin(files: Dictionary(uniqueKeysWithValues: names.map { ($0, 4096) }))
    let fixture = try origin.fixture(parallelDownloads: 8)
    let all = fixture.manager.allEvents()  // read only once the queue is done
    let contents = try await fixture.manager.add(
      names.map { OfflineSource(url: origin.url($0), id: String($0.dropLast(4))) })
    let done = try await fixture.running {
      try await eventually(timeout: .seconds(60)) {
        try await fixture.manager.snapshots(in: [.downloaded]).count == 200
      }
    }
    #expect(done)
    await fixture.manager.close()  // ends the sequence after what it holds

    var seen: [String: [String]] = [:]
    for await (id, event) in all where event.name != "progress" {
      seen[id, default: []].append(event.name)
    }
    #expect(seen.count == 200)
    for content in contents {
      #expect(
        seen[content.id] == ["state:downloading", "state:downloaded", "finished"],
        "\(content.id): \(seen[content.id] ?? [])")
    }
  }

  /// The listener shape of the player SDKs (finished, progress, suspended, resumed,
  /// canceled, error), written over the one sequence as the README shows it.
  @Test func theListenerSampleHearsEachCallbackOnce() async throws {
    let (_, gate, fixture, content, recorder) = try await Self.heldDownload()
    let heard = Locked<[String]>([])
    let listening = Task {
      await listen(to: content, DownloadListenerSample(heard: heard))
    }
    try await Self.suspendResumeAndFinish(content, at: gate, recorder, in: fixture)
    #expect(await eventually { heard.withLock { $0.last } == "finished" })
    listening.cancel()
    #expect(
      heard.withLock { $0.filter { $0 != "progress" } } == ["suspended", "resumed", "finished"])
    #expect(heard.withLock { $0.contains("progress") })
  }
}

/// Records what the README's listener hears.
struct DownloadListenerSample: DownloadListener {
  let heard: Locked<[String]>

  func onProgress(_ progress: OfflineProgress) { note("progress") }
  func onSuspended() { note("suspended") }
  func onResumed() { note("resumed") }
  func onFinished(_ file: URL) { note("finished") }
  func onCanceled() { note("canceled") }
  func onError(_ error: OfflineError) { note("error") }

  private func note(_ name: String) { heard.withLock { $0.append(name) } }
}
