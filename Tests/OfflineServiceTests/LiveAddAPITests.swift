import Foundation
import OfflineKit
import TestSupport
import TestTiming
import Testing

@testable import OfflineService

/// `POST /api/contents` takes the live options of `offline add` (issue 41): `fromStart`,
/// `liveOffset`, `recordFor`, `recordUntil`, `split` and `endAfterSilence`, read as the command reads
/// them; a bad value is a 400 naming its field, and nothing is queued.
@Suite(.serialized, .timed) struct LiveAddAPITests {
  /// The live options `body` gives, or the error's sentence.
  static func live(_ body: String) throws -> Result<LiveRecordingOptions, AddRequestError> {
    let request = try JSONDecoder().decode(AddRequest.self, from: Data(body.utf8))
    return request.resolved().map { $0.1.stream.live }
  }

  @Test func eachLiveFieldSetsTheOptionOfItsCommandLineTwin() throws {
    let body = #"""
      {"urls": ["http://127.0.0.1/live.m3u8"], "fromStart": true, "recordFor": "1h30m",
       "recordUntil": "2026-12-07T18:30:00Z", "split": 600, "endAfterSilence": "45s"}
      """#
    let options = try Self.live(body).get()
    #expect(options.start == .fromStart)
    #expect(options.recordFor == .seconds(5400))
    #expect(options.recordUntil == ISO8601DateFormatter().date(from: "2026-12-07T18:30:00Z"))
    #expect(options.splitEvery == .seconds(600))
    #expect(options.endAfterSilence == .seconds(45))
    let behind = try Self.live(#"{"urls": ["http://127.0.0.1/live.m3u8"], "liveOffset": "2m"}"#)
    #expect(try behind.get().start == .secondsBack(120))
    let plain = try Self.live(#"{"urls": ["http://127.0.0.1/live.m3u8"], "fromStart": false}"#)
    #expect(try plain.get() == LiveRecordingOptions())
  }

  /// Runs an origin of `segments` one-second segments, adds its stream through the API
  /// with the JSON `fields`, and hands `body` the service and the content's id.
  static func adding(
    _ fields: String, segments: Int, _ body: (ServiceFixture, String) async throws -> Void
  ) async throws {
    let origin = try await LiveOrigin(.init(segmentCount: segments, window: 6, initialSegments: 3))
    try origin.start()
    defer { origin.stop() }
    let fixture = try await ServiceFixture()
    let added = try await fixture.post(
      "/api/contents", #"{"urls": ["\#(origin.url)"], \#(fields)}"#)
    #expect(added.status == 201, "\(added.text)")
    let id = try #require((added.json as? [[String: Any]])?.first?["id"] as? String)
    try await body(fixture, id)
    await fixture.close()
  }

  @Test(.enabled(if: FFmpeg.isAvailable), .timeLimit(.minutes(2)))
  func anAddWithRecordForRecordsAboutThatLongAndEndsDownloaded() async throws {
    // Without the option it would record all 40 segments, 40 s.
    try await Self.adding(#""fromStart": true, "recordFor": "4s""#, segments: 40) { fixture, id in
      try await fixture.waitFor(id, .downloaded, timeout: 60)
      let live = try #require(try await fixture.manager.snapshot(id: id).live)
      #expect(live.finishReason == "durationReached")
      #expect(live.recordedSeconds >= 4 && live.recordedSeconds <= 10, "\(live.recordedSeconds) s")
    }
  }

  @Test(.enabled(if: FFmpeg.isAvailable), .timeLimit(.minutes(2)))
  func anAddWithSplitRecordsConsecutiveParts() async throws {
    try await Self.adding(#""fromStart": true, "split": "4s""#, segments: 12) { fixture, id in
      let manager = fixture.manager
      var ended = false
      let deadline = Date().addingTimeInterval(90)
      while !ended, Date() < deadline {
        let parts = try await manager.snapshots().filter { $0.live?.recordingID == id }
        // A next part is queued before the part before it is downloaded: all downloaded is
        // the recording's end.
        ended =
          parts.count >= 2 && parts.allSatisfy { $0.state == .downloaded }
          && parts.contains { $0.live?.finishReason == "endList" }
        if !ended { try await Task.sleep(for: .milliseconds(100)) }
      }
      #expect(ended, "the parts never all ended")
      let parts = try await manager.snapshots().filter { $0.live?.recordingID == id }
        .sorted { ($0.live?.part ?? 0) < ($1.live?.part ?? 0) }
      #expect(parts.count >= 2 && parts.first?.id == id, "\(parts.map(\.id))")
      for part in parts.dropLast() {
        #expect(part.live?.finishReason == "durationReached", "\(part.id)")
      }
      let seconds = parts.reduce(0) { $0 + ($1.live?.recordedSeconds ?? 0) }
      #expect(seconds >= 11, "\(seconds) s of 12 in \(parts.count) parts")
    }
  }

  @Test func aBadLiveValueIsA400NamingItsFieldAndQueuesNothing() async throws {
    let fixture = try await ServiceFixture()
    let url = #""urls": ["http://127.0.0.1/live.m3u8"]"#
    let cases = [
      ("recordFor", #""recordFor": "soon""#), ("recordFor", #""recordFor": -5"#),
      ("split", #""split": "10x""#), ("split", #""split": true"#),
      ("recordUntil", #""recordUntil": "25:00""#), ("recordUntil", #""recordUntil": 1800"#),
      ("fromStart", #""fromStart": "yes""#), ("endAfterSilence", #""endAfterSilence": [3]"#),
      ("endAfterSilence", #""endAfterSilence": "0""#), ("liveOffset", #""liveOffset": "far""#),
      ("liveOffset", #""liveOffset": "30s", "fromStart": true"#),
    ]
    for (field, value) in cases {
      let reply = try await fixture.post("/api/contents", "{\(url), \(value)}")
      #expect(reply.status == 400, "\(value): \(reply.text)")
      let error = (reply.json as? [String: Any])?["error"] as? String
      #expect(error?.contains("'\(field)'") == true, "\(value): \(reply.text)")
    }
    #expect(try await fixture.manager.snapshots().isEmpty)
    await fixture.close()
  }
}
