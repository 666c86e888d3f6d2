import Foundation
import TestSupport
import TestTiming
import Testing

/// `offline get --from-start --split 4s` of a live stream whose first window already holds
/// more than three parts' worth (issue 41, items 2 and 5): each part asks for no segment
/// past its share however many the window lists at once, so it lasts its share to within
/// one segment, and the parts, decoded one after another, are the whole stream. Pins the
/// bug where the first part asked for the whole backlog and recorded 9 s or more.
@Suite(.serialized, .enabled(if: FFmpeg.isAvailable), .ownThreads, .timed)
struct LiveSplitBacklogCommandTests {
  /// The share of each part, in seconds.
  static let share = 4.0

  /// Runs `offline get` of `url` into a fresh folder, from the start, split every 4 s.
  func splitGet(_ url: URL) async throws -> (work: TemporaryDirectory, out: String) {
    let work = try TemporaryDirectory()
    let out = work.url.appending(path: "live").path
    let result = try await InProcessOffline.run(
      ["--store", work.url.appending(path: "s").path, "get", url.absoluteString, "-o", out]
        + ["--from-start", "--quiet", "--split", "4s"], timeout: 120)
    #expect(result.status == 0, "\(result.stderrText)")
    return (work, out)
  }

  @Test func aLiveHLSBacklogIsSplitIntoPartsOfTheirShareThatTogetherAreTheWholeStream()
    async throws
  {
    let origin = try await LiveOrigin(.init(segmentCount: 18, window: 16, initialSegments: 14))
    try origin.start()
    defer { origin.stop() }
    let (work, out) = try await splitGet(origin.url)
    let parts = try LiveSplitCommandTests.parts(in: out)
    #expect(parts.count >= 4, "\(parts.map(\.name))")
    let longest = origin.schedule.sequences.map(origin.duration).max() ?? 1
    for part in parts.dropLast() {
      #expect(part.state.finished == "durationReached", "\(part.name)")
      let seconds = part.state.recorded.map(origin.duration).reduce(0, +)
      #expect(
        seconds >= Self.share - 0.01 && seconds < Self.share + longest,
        "\(part.name): \(seconds) s in \(part.state.recorded)")
    }
    #expect(parts.last?.state.finished == "endList")
    try await LiveSplitCommandTests.expectEverySegmentOnce(
      parts, in: out, sequences: origin.schedule.sequences)
    var pictures: [String] = []
    for part in parts {
      pictures += try await FFmpeg.frameHashes(of: out + "/" + part.name + "/index.m3u8")
    }
    let reference = work.url.appending(path: "reference.ts")
    try origin.referenceFile(of: Array(origin.schedule.sequences), in: reference)
    let whole = try await FFmpeg.frameHashes(of: reference.path)
    #expect(!whole.isEmpty && pictures == whole, "\(pictures.count) of \(whole.count) pictures")
  }

  @Test func aLiveDASHBacklogIsSplitIntoPartsOfTheirShareThatTogetherAreTheWholeStream()
    async throws
  {
    let origin = try await DASHLiveOrigin(segmentCount: 18, backlog: 14)
    try origin.start()
    defer { origin.stop() }
    let (work, out) = try await splitGet(origin.url)
    let parts = try LiveDASHSplitCommandTests.parts(in: out)
    #expect(parts.count >= 4, "\(parts.map(\.name))")
    for part in parts.dropLast() {
      #expect(part.state.finished == "durationReached", "\(part.name)")
      // One-second segments in both tracks: the share, or one segment more.
      let seconds = part.state.recorded.map(\.count)
      #expect(seconds.allSatisfy { (4...5).contains($0) }, "\(part.name): \(seconds) s")
    }
    #expect(parts.last?.state.finished == "endList")
    try await LiveDASHSplitCommandTests.expectEverySegmentOnce(
      parts, in: out, count: origin.segmentCount)
    let pictures = try await LiveDASHSplitCommandTests.pictures(of: parts, in: out)
    let reference = work.url.appending(path: "reference.mp4")
    try origin.joined(stream: 0, Array(1...origin.segmentCount)).reduce(Data(), +)
      .write(to: reference)
    let whole = try await FFmpeg.frameHashes(of: reference.path)
    #expect(!whole.isEmpty && pictures == whole, "\(pictures.count) of \(whole.count) pictures")
  }
}
