import Foundation
import TestSupport
import TestTiming
import Testing

@testable import OfflineKit

/// A live HLS recording split through the manager's queue (issue 41, items 5 and 7): each
/// part is an ordinary content, so pause, resume and cancel act on the part that records,
/// and the parts that finished before stay as they are.
@Suite(.serialized, .enabled(if: FFmpeg.isAvailable, "ffmpeg is not installed"), .timed)
struct LiveQueueSplitTests {
  /// Queues `origin`'s stream from its start as content `live`, split every `every`.
  func queueSplit(_ origin: LiveOrigin, _ fixture: ManagerFixture, every: Duration)
    async throws -> OfflineContent
  {
    let first = try await fixture.manager.content(for: OfflineSource(url: origin.url, id: "live"))
    var configuration = DownloadConfiguration()
    configuration.stream.live = LiveRecordingOptions(start: .fromStart)
    configuration.stream.live.splitEvery = every
    try await first.download(configuration)
    return first
  }

  /// Waits (at most 40 s) until content `id` exists and has recorded a segment.
  func waitUntilRecording(_ id: String, _ fixture: ManagerFixture) async -> Bool {
    await eventually(timeout: .seconds(40)) {
      let snapshot = try? await fixture.manager.snapshot(id: id)
      return (snapshot?.live?.recordedSegments ?? 0) >= 1 && snapshot?.state == .downloading
    }
  }

  /// The recorded numbers and the gaps of content `id`'s recording.
  func journal(_ id: String, _ fixture: ManagerFixture) throws -> LiveJournal {
    try #require(LiveRecordState.read(in: fixture.contentFolder(id))).journal
  }

  @Test func pausingThePartThatRecordsSuspendsItAloneAndResumeGoesOnThenTheNextPartsFollow()
    async throws
  {
    let origin = try await LiveOrigin(.init(segmentCount: 20, window: 6, initialSegments: 3))
    try origin.start()
    defer { origin.stop() }
    let fixture = try ManagerFixture()
    let first = try await queueSplit(origin, fixture, every: .seconds(3))
    let manager = fixture.manager
    let parts = try await fixture.running { () async throws -> [OfflineContent.Snapshot] in
      try #require(await waitUntilRecording("live-2", fixture), "part 2 never recorded")
      let second = try await manager.content(id: "live-2")
      try await second.suspend()
      #expect(try await eventually(timeout: .seconds(20)) { try await second.state == .suspended })
      #expect(try await first.state == .downloaded, "the part before is done, untouched")
      let paused = try await second.playbackURL()
      #expect(try String(contentsOf: paused, encoding: .utf8).contains("#EXT-X-ENDLIST"))
      #expect(try await FFmpeg.decode(paused.path).errors.isEmpty, "a paused part plays")
      #expect((try? await manager.snapshot(id: "live-3")) == nil, "no part follows a pause")
      try await Task.sleep(for: .seconds(7))  // longer than the window
      try await second.resume()
      let ended = try await eventually(timeout: .seconds(60)) {
        let snapshots = try await manager.snapshots().filter { $0.live?.recordingID == "live" }
        // A next part is queued before the part before it is downloaded: all downloaded is
        // the recording's end.
        return snapshots.count >= 3 && snapshots.allSatisfy { $0.state == .downloaded }
      }
      #expect(ended)
      return try await manager.snapshots().filter { $0.live?.recordingID == "live" }
        .sorted { ($0.live?.part ?? 0) < ($1.live?.part ?? 0) }
    }
    #expect(parts.map(\.id).prefix(3) == ["live", "live-2", "live-3"], "\(parts.map(\.id))")
    var recorded: [Int] = []
    var gaps: [LiveGap] = []
    for part in parts {
      let journal = try journal(part.id, fixture)
      recorded += journal.recorded.runs.flatMap { Array($0) }
      gaps += journal.ledger.gaps
      #expect(try await manager.content(id: part.id).verify().isWhole, "\(part.id)")
    }
    #expect(try journal("live-2", fixture).ledger.gaps.map(\.reason) == [.notRunning])
    #expect(gaps.count == 1, "only the pause: \(gaps)")
    #expect(recorded == recorded.sorted() && Set(recorded).count == recorded.count, "\(recorded)")
    let covered = gaps.reduce(into: Set(recorded)) { $0.formUnion($1.sequences) }
    #expect(covered == Set(origin.schedule.sequences), "\(recorded) \(gaps)")
  }

  /// Cancel deletes only the part that records; the parts before stay, ordinary downloaded
  /// contents, and the recording ends there (no next part is queued).
  @Test func cancelingThePartThatRecordsDeletesItAloneAndEndsTheRecording() async throws {
    let origin = try await LiveOrigin(.init(segmentCount: 14, window: 6, initialSegments: 3))
    try origin.start()
    defer { origin.stop() }
    let fixture = try ManagerFixture()
    let first = try await queueSplit(origin, fixture, every: .seconds(3))
    let manager = fixture.manager
    try await fixture.running {
      try #require(await waitUntilRecording("live-2", fixture), "part 2 never recorded")
      try await manager.content(id: "live-2").cancel()
      #expect(
        try await eventually(timeout: .seconds(20)) {
          try await manager.snapshot(id: "live-2").state == .notDownloaded
        })
      try await Task.sleep(for: .seconds(4))  // a part would have ended meanwhile
    }
    #expect(!FileManager.default.fileExists(atPath: fixture.contentFolder("live-2").path))
    #expect((try? await manager.snapshot(id: "live-3")) == nil, "the recording ended")
    #expect(try await first.state == .downloaded)
    #expect(try await first.verify().isWhole)
    let decoded = try await FFmpeg.decode(try await first.playbackURL().path)
    #expect(decoded.errors.isEmpty, "\(decoded.errors)")
    #expect(try journal("live", fixture).recorded.count >= 3)
  }
}
