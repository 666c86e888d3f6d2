import Foundation
import TestSupport
import TestTiming
import Testing

/// `offline add --split` of a live DASH presentation that ends just after a part's
/// boundary (issue 41, items 5, 6 and 7): its MPD lists the last segment a moment before it
/// turns `static`, so the last part reaches its share on the last segment. No empty part
/// follows it: before queuing a next part, the queue checks the presentation has not ended
/// with nothing after the part, as it checks a live HLS playlist. Pins the bug where a
/// queued DASH part queued an empty last content after the stream ended.
@Suite(.serialized, .enabled(if: FFmpeg.isAvailable), .ownThreads, .timed)
struct LiveDASHQueueSplitEndTests {
  typealias Queue = LiveQueueSplitCommandTests
  typealias Split = LiveDASHSplitCommandTests

  @Test func aPresentationEndingAtAPartsBoundaryQueuesNoEmptyLastPart() async throws {
    // 12 one-second segments, parts of 4: the third part's share is the last segment, and
    // the MPD stays dynamic 2.5 s after it.
    let origin = try await DASHLiveOrigin(layout: .timeline, lingers: 2.5)
    let fixture = try QueueFixture()
    let id = try await fixture.addOne([origin.url.absoluteString, "--from-start", "--split", "4s"])
    try origin.start()
    defer { origin.stop() }
    let parts = try await Queue().runToTheEnd(id, fixture)
    #expect(parts.count == 3, "\(parts.map(\.content.id))")
    #expect(try await fixture.list().count == 3, "no other content")
    let states = try parts.map { try Split.LiveState(folder: Queue.folder($0.content)) }
    for (part, state) in zip(parts, states) {
      #expect(state.recorded.map(\.count) == [4, 4], "part \(part.number): \(state.recorded)")
    }
    // Its share on the last segment, from the dynamic MPD (or the end, on a machine so
    // loaded that the part began after the MPD turned static).
    let reasons = ["durationReached", "endList"]
    #expect(reasons.contains(states.last?.finished ?? ""), "\(states.last?.finished ?? "")")
    try await Split.expectEverySegmentOnce(
      zip(parts, states).map { ($0.0.content.id, $0.1) },
      in: fixture.store.appending(path: "content").path, count: origin.segmentCount)
    var pictures: [String] = []
    for part in parts { pictures += try await FFmpeg.frameHashes(of: part.content.path) }
    let reference = fixture.folder.url.appending(path: "reference.mp4")
    try origin.joined(stream: 0, Array(1...origin.segmentCount)).reduce(Data(), +)
      .write(to: reference)
    let whole = try await FFmpeg.frameHashes(of: reference.path)
    #expect(!whole.isEmpty && pictures == whole, "\(pictures.count) of \(whole.count) pictures")
  }
}
