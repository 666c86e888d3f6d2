import Foundation
import TestTiming
import Testing

@testable import TestSupport

/// The live origin the recording tests stand on: its window slides on schedule, a dropped
/// segment answers 404, a move answers 403 at the old paths, and the last segment comes
/// with `EXT-X-ENDLIST`.
@Suite(.serialized, .enabled(if: FFmpeg.isAvailable), .timed)
struct LiveOriginTests {
  /// The media-sequence number and the segment paths of the playlist at `url`.
  func window(_ url: URL) async throws -> (first: Int, uris: [String], ended: Bool) {
    let fetched = try await Curl.fetch(url)
    #expect(fetched.status == 200)
    let text = String(decoding: fetched.body, as: UTF8.self)
    let lines = text.split(separator: "\n").map(String.init)
    let first =
      lines.first { $0.hasPrefix("#EXT-X-MEDIA-SEQUENCE:") }
      .flatMap { Int($0.dropFirst("#EXT-X-MEDIA-SEQUENCE:".count)) } ?? -1
    return (first, lines.filter { !$0.hasPrefix("#") }, text.contains("#EXT-X-ENDLIST"))
  }

  @Test func theWindowSlidesOnScheduleAndEndsWithEndList() async throws {
    let origin = try await LiveOrigin(
      .init(segmentCount: 5, window: 3, initialSegments: 2, interval: 0.3, dropped: [101]))
    let before = try await Curl.fetch(origin.url)
    #expect(before.status == 404, "nothing is published before start")
    try origin.start()
    defer { origin.stop() }
    let start = try await window(origin.url)
    #expect(start.first == 100 && start.uris == ["seg100.ts", "seg101.ts"] && !start.ended)
    #expect(try await Curl.fetch(origin.server.url("/seg100.ts")).body == origin.segment(100))
    #expect(try await Curl.fetch(origin.server.url("/seg101.ts")).status == 404, "dropped")
    for _ in 0..<100 where origin.endedAt == nil {
      try await Task.sleep(for: .milliseconds(50))  // at most 5 s
    }
    let end = try await window(origin.url)
    #expect(end.first == 102 && end.uris == ["seg102.ts", "seg103.ts", "seg104.ts"])
    #expect(end.ended)
    #expect(origin.published == Array(100...104))
    let times = (100...104).compactMap { origin.publishedAt[$0] }
    #expect(times.count == 5)
    let spread = times[4].timeIntervalSince(times[1])
    #expect(spread > 0.8 && spread < 2.5, "three intervals of 0.3 s took \(spread) s")
  }

  @Test func aMoveRefusesTheOldPaths() async throws {
    let origin = try await LiveOrigin(
      .init(segmentCount: 4, window: 4, initialSegments: 2, interval: 0.2, movesAfter: 102))
    let old = origin.url
    try origin.start()
    defer { origin.stop() }
    for _ in 0..<100 where origin.endedAt == nil {
      try await Task.sleep(for: .milliseconds(50))  // at most 5 s
    }
    #expect(origin.url.path == "/v2/live.m3u8")
    #expect(try await Curl.fetch(old).status == 403)
    #expect(try await Curl.fetch(origin.server.url("/seg100.ts")).status == 403)
    let moved = try await window(origin.url)
    #expect(moved.uris == ["seg100.ts", "seg101.ts", "seg102.ts", "seg103.ts"])
    #expect(try await Curl.fetch(origin.server.url("/v2/seg100.ts")).body == origin.segment(100))
  }

  /// A held origin publishes nothing after its number, whatever time passes, and goes on
  /// to the end once released.
  @Test func aHeldOriginWaitsForItsRelease() async throws {
    let origin = try await LiveOrigin(
      .init(segmentCount: 4, window: 4, initialSegments: 1, interval: 0.1, holdsAfter: 101))
    try origin.start()
    defer { origin.stop() }
    for _ in 0..<100 where origin.published.count < 2 {
      try await Task.sleep(for: .milliseconds(50))  // at most 5 s
    }
    try await Task.sleep(for: .milliseconds(600))  // six intervals
    #expect(origin.published == [100, 101])
    #expect(try await window(origin.url).uris == ["seg100.ts", "seg101.ts"])
    origin.release()
    for _ in 0..<100 where origin.endedAt == nil {
      try await Task.sleep(for: .milliseconds(50))  // at most 5 s
    }
    #expect(origin.published == Array(100...103))
    #expect(try await window(origin.url).ended)
  }

  /// A restart is tagged while its segment is in the window, and counted by
  /// `EXT-X-DISCONTINUITY-SEQUENCE` once it left; its segment is the fixture's first again.
  @Test func aRestartIsADiscontinuityThatTheSequenceCountsOnceItLeft() async throws {
    let listed = LiveOrigin.playlist(102...104, duration: { _ in 1 }, restarts: [103], ended: false)
    #expect(!listed.contains("#EXT-X-DISCONTINUITY-SEQUENCE"))
    #expect(listed.contains("#EXT-X-DISCONTINUITY\n#EXTINF:1.000000,\nseg103.ts\n"), "\(listed)")
    let first = LiveOrigin.playlist(103...105, duration: { _ in 1 }, restarts: [103], ended: false)
    #expect(first.contains("#EXT-X-DISCONTINUITY\n#EXTINF:1.000000,\nseg103.ts\n"), "\(first)")
    #expect(!first.contains("#EXT-X-DISCONTINUITY-SEQUENCE"))
    let gone = LiveOrigin.playlist(104...106, duration: { _ in 1 }, restarts: [103], ended: false)
    #expect(gone.contains("#EXT-X-DISCONTINUITY-SEQUENCE:1\n"), "\(gone)")
    #expect(!gone.contains("#EXT-X-DISCONTINUITY\n"))
    let origin = try await LiveOrigin(.init(segmentCount: 4, restarts: [102]))
    #expect(origin.segment(102) == origin.segment(100))
    #expect(origin.segment(103) == origin.segment(101))
    #expect(origin.segment(101) != origin.segment(100))
  }
}
