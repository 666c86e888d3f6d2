import Foundation
import TestSupport
import TestTiming
import Testing

/// `offline add --split` of a live stream, then `offline run` (issue 41, items 5 and 7):
/// consecutive contents, each an ordinary queued content with its own id, `downloaded` once
/// its part ends, shown by `ls` and `info` as a part of the recording of the first; together
/// they hold every segment once, so their decodes, one after another, are the whole
/// recording's.
@Suite(.serialized, .enabled(if: FFmpeg.isAvailable), .ownThreads, .timed)
struct LiveQueueSplitCommandTests {
  typealias LiveState = LiveRecordCommandTests.LiveState

  /// The listed contents of the recording whose first part is `id`, in part order, with
  /// their part numbers.
  static func parts(of id: String, in fixture: QueueFixture) async throws -> [(
    number: Int, content: ListedContent
  )] {
    try await fixture.list().compactMap { content in
      guard let live = content.object["live"] as? [String: Any],
        live["recordingID"] as? String == id, let number = live["part"] as? Int
      else { return nil }
      return (number, content)
    }.sorted { $0.number < $1.number }
  }

  /// The folder of a listed stream content.
  static func folder(_ content: ListedContent) -> String {
    (content.path as NSString).deletingLastPathComponent
  }

  /// Runs the queue to its end and returns the recording's parts, each expected downloaded
  /// and numbered 1, 2, 3… with the ids `id`, `id-2`, `id-3`…
  func runToTheEnd(_ id: String, _ fixture: QueueFixture) async throws -> [(
    number: Int, content: ListedContent
  )] {
    let run = try await fixture.offline(["run", "--quiet"], timeout: 120)
    #expect(run.status == 0, "\(run.stderrText)")
    let parts = try await Self.parts(of: id, in: fixture)
    #expect(parts.map(\.number) == Array(1...max(parts.count, 1)), "\(parts.map(\.content.id))")
    for (number, content) in parts {
      #expect(content.state == "downloaded", "part \(number): \(content.object)")
      #expect(content.id == (number == 1 ? id : "\(id)-\(number)"))
    }
    return parts
  }

  @Test func addSplitOfALiveHLSStreamGivesConsecutiveContentsThatPlayTheWholeStream()
    async throws
  {
    let origin = try await LiveOrigin(.init(segmentCount: 11, window: 8, initialSegments: 3))
    let fixture = try QueueFixture()
    let id = try await fixture.addOne([origin.url.absoluteString, "--from-start", "--split", "3s"])
    try origin.start()
    defer { origin.stop() }
    let parts = try await runToTheEnd(id, fixture)
    #expect(parts.count >= 3, "\(parts.map(\.content.id))")
    var recorded: [Int] = []
    var pictures: [String] = []
    for (number, content) in parts {
      let state = try LiveState(folder: Self.folder(content))
      #expect(state.gaps.isEmpty, "part \(number): \(state.gaps)")
      // The last ends with the stream, or with its share when that came with the last
      // segment (no part follows a playlist that ended).
      let ends = number == parts.count ? ["endList", "durationReached"] : ["durationReached"]
      #expect(ends.contains(state.finished ?? ""), "part \(number): \(state.finished ?? "")")
      recorded += state.recorded
      let decoded = try await FFmpeg.decode(content.path)
      #expect(decoded.errors.isEmpty, "part \(number): \(decoded.errors)")
      pictures += try await FFmpeg.frameHashes(of: content.path)
    }
    #expect(recorded == Array(origin.schedule.sequences), "every segment once, in order")
    let reference = fixture.folder.url.appending(path: "reference.ts")
    try origin.referenceFile(of: Array(origin.schedule.sequences), in: reference)
    let whole = try await FFmpeg.frameHashes(of: reference.path)
    #expect(!whole.isEmpty && pictures == whole, "\(pictures.count) of \(whole.count) pictures")

    let table = try await fixture.offline(["ls"])
    #expect(table.stdoutText.contains("part 2 of the recording of \(id)"), "\(table.stdoutText)")
    let info = try await fixture.offline(["info", "\(id)-2"])
    #expect(info.status == 0, "\(info.stderrText)")
    for line in ["State: downloaded", "Part 2 of the recording of \(id)", "Gaps: 0"] {
      #expect(info.stdoutText.contains(line), "\(line) in \(info.stdoutText)")
    }
    let verified = try await fixture.offline(["verify", "\(id)-2"])
    #expect(verified.status == 0, "\(verified.stdoutText) \(verified.stderrText)")
  }

  @Test func addSplitOfALiveDASHPresentationGivesConsecutiveContentsThatPlayTheWholeStream()
    async throws
  {
    let origin = try await DASHLiveOrigin()
    let fixture = try QueueFixture()
    let id = try await fixture.addOne([origin.url.absoluteString, "--from-start", "--split", "5s"])
    try origin.start()
    defer { origin.stop() }
    let parts = try await runToTheEnd(id, fixture)
    #expect(parts.count >= 2, "\(parts.map(\.content.id))")
    let folders = parts.map { (name: Self.folder($0.content), state: $0.content) }
    let states = try folders.map { try LiveDASHSplitCommandTests.LiveState(folder: $0.name) }
    #expect(states.last?.finished == "endList")
    for state in states.dropLast() { #expect(state.finished == "durationReached") }
    // Every track holds every number once across the parts, each part cut at one time.
    try await LiveDASHSplitCommandTests.expectEverySegmentOnce(
      zip(parts, states).map { ($0.0.content.id, $0.1) },
      in: fixture.store.appending(path: "content").path, count: DASHLiveOrigin.segmentCount)
    var pictures: [String] = []
    for part in parts { pictures += try await FFmpeg.frameHashes(of: part.content.path) }
    let reference = fixture.folder.url.appending(path: "reference.mp4")
    let numbers = Array(1...DASHLiveOrigin.segmentCount)
    try origin.joined(stream: 0, numbers).reduce(Data(), +).write(to: reference)
    let whole = try await FFmpeg.frameHashes(of: reference.path)
    #expect(!whole.isEmpty && pictures == whole, "\(pictures.count) of \(whole.count) pictures")
  }

  /// A kill -9 of `offline run` while the second part records, a downtime longer than the
  /// window, then `offline run` again: the second part goes on with the downtime as its one
  /// gap, then the next parts follow; no segment is lost but those of the downtime, and none
  /// is recorded twice.
  @Test func aKilledRunGoesOnWithTheSamePartThenTheNextOnesWithTheDowntimeAsOneGap()
    async throws
  {
    let origin = try await LiveOrigin(.init(segmentCount: 24, window: 6, initialSegments: 3))
    let fixture = try QueueFixture()
    let id = try await fixture.addOne([origin.url.absoluteString, "--from-start", "--split", "4s"])
    try origin.start()
    defer { origin.stop() }
    let run = try OfflineBinary.start(["run", "--quiet"], store: fixture.store)
    defer { run.killIfRunning() }
    let second = fixture.store.appending(path: "content/\(id)-2").path
    let recording = await QueueFixture.poll(seconds: 40) {
      ((try? LiveState(folder: second))?.recorded.count ?? 0) >= 1
    }
    try #require(recording, "the second part never recorded a segment")
    kill(run.processIdentifier, SIGKILL)
    _ = await run.waitBounded(seconds: 10)
    let before = try LiveState(folder: second)
    try await Task.sleep(for: .seconds(8))  // longer than the window (6 s)
    let parts = try await runToTheEnd(id, fixture)
    #expect(parts.count >= 3, "\(parts.map(\.content.id))")
    var recorded: [Int] = []
    var gaps: [(range: ClosedRange<Int>, reason: String)] = []
    for (number, content) in parts {
      let state = try LiveState(folder: Self.folder(content))
      recorded += state.recorded
      gaps += state.gaps
      if number != 2 { #expect(state.gaps.isEmpty, "part \(number): \(state.gaps)") }
      let decoded = try await FFmpeg.decode(content.path)
      #expect(decoded.errors.isEmpty, "part \(number): \(decoded.errors)")
    }
    #expect(gaps.count == 1, "\(gaps)")
    #expect(gaps.first?.reason == "notRunning")
    #expect(Set(before.recorded).isSubset(of: Set(recorded)), "nothing recorded is lost")
    #expect(recorded == recorded.sorted() && Set(recorded).count == recorded.count, "\(recorded)")
    let covered = gaps.reduce(into: Set(recorded)) { $0.formUnion($1.range) }
    #expect(covered == Set(origin.schedule.sequences), "\(recorded) \(gaps)")
  }
}
