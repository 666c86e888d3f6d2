import TestTiming
import Testing

@testable import OfflineExport

/// The continuous timeline, without I/O: packets in, timestamps out.
@Suite(.timed) struct TimelineStitcherTests {
  /// 90 kHz video at 25 fps (3600 ticks a frame) and 48 kHz AAC (1024 samples a frame).
  private static let video = TimelineStitcher.TimeBase(numerator: 1, denominator: 90_000)
  private static let audio = TimelineStitcher.TimeBase(numerator: 1, denominator: 48_000)
  private static let audioFrame = 1024 / 48_000.0

  private func stitcher(startTime: Double = 0) -> TimelineStitcher {
    TimelineStitcher(
      timeBases: [Self.video, Self.audio], sparse: [false, false], droppable: [false, true],
      primary: 0, startTime: startTime, jumpThreshold: 5)
  }

  /// What came out of one part: stitched decode times in seconds per stream, epochs started,
  /// packets that were held.
  private struct Part {
    var video: [Double] = []
    var audio: [Double] = []
    var epochs = 0
    var held = 0
    var dropped = 0
  }

  /// Feeds one encoding's packets: `frames` video frames from `videoStart` and audio frames
  /// from `audioStart` (raw seconds) until `audioEnd` seconds after it, in decode order, the
  /// way the remuxer does (a held packet comes back, with every later one of its stream, once
  /// the primary stream has placed a packet that started an epoch).
  private func feed(
    _ stitcher: inout TimelineStitcher, videoStart: Double, audioStart: Double, frames: Int,
    audioLength: Double? = nil
  ) -> Part {
    let audioFrames = Int(((audioLength ?? Double(frames) * 0.04) / Self.audioFrame).rounded(.up))
    var events: [(time: Double, stream: Int)] = (0..<frames).map {
      (videoStart + Double($0) * 0.04, 0)
    }
    events += (0..<audioFrames).map { (audioStart + Double($0) * Self.audioFrame, 1) }
    events.sort { $0.time < $1.time }
    var part = Part()
    var held: [(time: Double, stream: Int)] = []
    func place(_ event: (time: Double, stream: Int), mayHold: Bool) -> Bool {
      let base = event.stream == 0 ? Self.video : Self.audio
      let ticks = base.ticks(event.time)
      let placement = stitcher.stitch(
        .init(pts: ticks, dts: ticks), duration: event.stream == 0 ? 3600 : 1024,
        stream: event.stream, mayHold: mayHold)
      if placement == .dropped {
        part.dropped += 1
        return true
      }
      guard case .placed(let stamps, let started) = placement else { return false }
      let time = base.seconds(stamps.dts!)
      if event.stream == 0 { part.video.append(time) } else { part.audio.append(time) }
      if started { part.epochs += 1 }
      return true
    }
    for event in events {
      if !held.isEmpty && held.contains(where: { $0.stream == event.stream }) {
        held.append(event)
        continue
      }
      if !place(event, mayHold: true) {
        held.append(event)
        part.held += 1
        continue
      }
      if part.epochs > 0 && !held.isEmpty {
        for event in held { _ = place(event, mayHold: false) }
        held = []
      }
    }
    for event in held { _ = place(event, mayHold: false) }
    return part
  }

  @Test func continuousTimestampsAreOnlyMovedToStartAtZero() {
    var stitcher = stitcher(startTime: 1.4)
    let part = feed(&stitcher, videoStart: 1.4, audioStart: 1.4, frames: 100)
    #expect(part.epochs == 0)
    #expect(stitcher.discontinuities == 0)
    #expect(abs(part.video[0]) < 1e-9)
    #expect(abs(part.video[99] - 3.96) < 1e-6)
    #expect(abs(part.audio[0]) < 1e-9)
  }

  @Test func timestampResetFollowsOnFromWhereTheVideoEnded() {
    var stitcher = stitcher(startTime: 1.4)
    let first = feed(&stitcher, videoStart: 1.4, audioStart: 1.4, frames: 150)
    // The second part starts its timestamps again, 6 s back.
    let second = feed(&stitcher, videoStart: 1.4, audioStart: 1.4, frames: 150)
    #expect(second.epochs == 1)
    #expect(stitcher.discontinuities == 1)
    #expect(abs(second.video[0] - (first.video.last! + 0.04)) < 1e-4)
    #expect(zip(second.video, second.video.dropFirst()).allSatisfy { $0 < $1 })
    // The first part's 282 audio frames run 16 ms past its 150 video frames: the second
    // part's first audio frame, in step with its video, would overlap them by more than half
    // its length and is left out; the next one is in step.
    #expect(second.dropped == 1)
    #expect(abs(second.audio[0] - second.video[0] - Self.audioFrame) < 1e-4)
    #expect(second.audio[0] >= first.audio.last! + Self.audioFrame)
  }

  @Test func audioLeavingAnEpochBeforeTheVideoWaitsForIt() {
    var stitcher = stitcher(startTime: 1.4)
    // The first part's audio ends 0.1 s before its video, so the second's does not overlap it.
    _ = feed(&stitcher, videoStart: 1.4, audioStart: 1.4, frames: 100, audioLength: 3.9)
    // In the second part the audio starts 50 ms before the video: its first packets come
    // first and are held until the video fixes the shift.
    let second = feed(&stitcher, videoStart: 1.45, audioStart: 1.4, frames: 100)
    #expect(second.held > 0)
    #expect(abs((second.video[0] - second.audio[0]) - 0.05) < 1e-3)
  }

  @Test func forwardJumpFarBeyondASegmentIsClosed() {
    var stitcher = stitcher()
    let first = feed(&stitcher, videoStart: 0, audioStart: 0, frames: 50)
    let second = feed(&stitcher, videoStart: 3600, audioStart: 3600, frames: 50)
    #expect(second.epochs == 1)
    #expect(abs(second.video[0] - (first.video.last! + 0.04)) < 1e-4)
  }

  @Test func gapShorterThanTheThresholdIsKept() {
    var stitcher = stitcher()
    _ = feed(&stitcher, videoStart: 0, audioStart: 0, frames: 50)
    let second = feed(&stitcher, videoStart: 4, audioStart: 4, frames: 50)
    #expect(second.epochs == 0)
    #expect(abs(second.video[0] - 4) < 1e-6)
  }

  /// Pins the drift of stitching each stream on its own end: every part's audio runs 5 ms past
  /// its video (AAC frames do not end with a video frame), and after 2000 resets the audio
  /// must still start with the video and the timeline be as long as the video.
  @Test func audioAndVideoStayInStepAcrossTwoThousandResets() {
    var stitcher = stitcher(startTime: 1.4)
    var last = Part()
    var epochs = 0
    for _ in 0..<2000 {
      last = feed(
        &stitcher, videoStart: 1.4, audioStart: 1.4, frames: 10, audioLength: 0.405)
      epochs += last.epochs
    }
    #expect(epochs == 1999)
    #expect(abs(last.video[0] - 1999 * 0.4) < 1e-3)
    #expect(abs(last.audio[0] - last.video[0]) < Self.audioFrame)
  }

  @Test func jumpOfTheAudioAloneIsItsOwnGap() {
    var stitcher = stitcher()
    _ = feed(&stitcher, videoStart: 0, audioStart: 0, frames: 50)
    // The audio jumps 10 s ahead while the video goes on: nothing to hold it for once the
    // caller stops holding, and it keeps its place.
    let ticks = Self.audio.ticks(12)
    let placement = stitcher.stitch(
      .init(pts: ticks, dts: ticks), duration: 1024, stream: 1, mayHold: false)
    #expect(placement == .placed(.init(pts: ticks, dts: ticks), startedEpoch: false))
    #expect(stitcher.discontinuities == 0)
  }

  @Test func subtitlesFollowTheLatestEpochWithoutStartingOne() {
    var stitcher = TimelineStitcher(
      timeBases: [Self.video, Self.audio], sparse: [false, true], primary: 0, startTime: 0,
      jumpThreshold: 5)
    _ = stitcher.stitch(.init(pts: 0, dts: 0), duration: 3600, stream: 0)
    _ = stitcher.stitch(.init(pts: 900_000, dts: 900_000), duration: 3600, stream: 0)
    #expect(stitcher.discontinuities == 1)
    // A cue 0.5 s into the new epoch (raw 10.5 s) is placed 0.5 s after the video's end.
    let placement = stitcher.stitch(.init(pts: 504_000, dts: 504_000), duration: 0, stream: 1)
    guard case .placed(let cue, let started) = placement else {
      Issue.record("the cue was held")
      return
    }
    #expect(!started)
    #expect(abs(Self.audio.seconds(cue.pts!) - 0.54) < 1e-3)
  }

  /// Pins a gap: the epoch's shift was anchored on decode times, so with B-frames (decode
  /// times two frames before presentation) every reset opened a two-frame hole in the
  /// pictures (80 ms a discontinuity; a DASH Period of x264 `veryfast` ended 0.1 s late).
  @Test func withBFramesTheNextEpochIsShownWhereTheLastPictureEnded() {
    var stitcher = TimelineStitcher(
      timeBases: [Self.video], sparse: [false], primary: 0, startTime: 0, jumpThreshold: 5)
    // 25 frames in decode order, I P B B ...: presentation times 0, 3, 1, 2, ... frames;
    // decode times 2 frames before (from -2).
    var order: [Int] = [0]
    for group in 0..<8 {
      let anchor: Int = 3 * group
      order += [anchor + 3, anchor + 1, anchor + 2]
    }
    func feedPart() -> [TimelineStitcher.Placement] {
      var placements: [TimelineStitcher.Placement] = []
      for (index, frame) in order.enumerated() {
        let stamps = TimelineStitcher.Stamps(
          pts: Int64(frame) * 3600, dts: Int64(index - 2) * 3600)
        placements.append(stitcher.stitch(stamps, duration: 3600, stream: 0))
      }
      return placements
    }
    _ = feedPart()
    let second = feedPart()
    #expect(stitcher.discontinuities == 1)
    // The first part shows frames 0 to 24: it ends at 25 frames.
    #expect(second.first == .placed(.init(pts: 25 * 3600, dts: 23 * 3600), startedEpoch: true))
  }

  /// After a part without B-frames, a part with them starts decoding two frames before its
  /// first picture shows, where the last part's frames were still decoding: those decode times
  /// squeeze in just after the last one, and no picture moves.
  @Test func bFramesAfterAPartWithoutThemSqueezeTheirFirstDecodeTimes() {
    let frame: Int64 = 3600
    var stitcher = TimelineStitcher(
      timeBases: [Self.video], sparse: [false], primary: 0, startTime: 0, jumpThreshold: 5)
    for index in 0..<Int64(25) {
      _ = stitcher.stitch(.init(pts: index * frame, dts: index * frame), duration: frame, stream: 0)
    }
    let reset = [(0, -2), (3, -1), (1, 0), (2, 1)].map { pts, dts in
      stitcher.stitch(
        .init(pts: Int64(pts) * frame, dts: Int64(dts) * frame), duration: frame, stream: 0)
    }
    #expect(
      reset == [
        .placed(.init(pts: 25 * frame, dts: 24 * frame + 1), startedEpoch: true),
        .placed(.init(pts: 28 * frame, dts: 24 * frame + 2), startedEpoch: false),
        .placed(.init(pts: 26 * frame, dts: 25 * frame), startedEpoch: false),
        .placed(.init(pts: 27 * frame, dts: 26 * frame), startedEpoch: false),
      ])
  }
}
