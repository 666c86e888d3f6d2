import TestTiming
import Testing

@testable import OfflineExport

/// The continuous timeline, without I/O: packets in, timestamps out.
@Suite(.timed) struct TimelineStitcherTests {
  /// 90 kHz video at 25 fps (3600 ticks a frame) and 48 kHz AAC (1024 samples a frame).
  private static let video = TimelineStitcher.TimeBase(numerator: 1, denominator: 90_000)
  private static let audio = TimelineStitcher.TimeBase(numerator: 1, denominator: 48_000)

  private func stitcher(startTime: Double = 0) -> TimelineStitcher {
    TimelineStitcher(
      timeBases: [Self.video, Self.audio], sparse: [false, false], startTime: startTime,
      jumpThreshold: 5)
  }

  /// Feeds `count` video frames from `videoStart` and the audio frames of the same span from
  /// `audioStart` (both raw seconds), interleaved by time; returns the stitched decode times in
  /// seconds per stream and whether an epoch started.
  private func feed(
    _ stitcher: inout TimelineStitcher, videoStart: Double, audioStart: Double, frames: Int
  ) -> (video: [Double], audio: [Double], epochs: Int) {
    var events: [(Double, Int)] = (0..<frames).map { (videoStart + Double($0) * 0.04, 0) }
    let audioFrames = Int(Double(frames) * 0.04 / (1024 / 48_000.0))
    events += (0..<audioFrames).map { (audioStart + Double($0) * 1024 / 48_000, 1) }
    events.sort {
      $0.0 - ($0.1 == 0 ? videoStart : audioStart) < $1.0 - ($1.1 == 0 ? videoStart : audioStart)
    }
    var out: ([Double], [Double], Int) = ([], [], 0)
    for (seconds, stream) in events {
      let base = stream == 0 ? Self.video : Self.audio
      let ticks = base.ticks(seconds)
      let (stamps, started) = stitcher.stitch(
        .init(pts: ticks, dts: ticks), duration: stream == 0 ? 3600 : 1024, stream: stream)
      let time = base.seconds(stamps.dts!)
      if stream == 0 { out.0.append(time) } else { out.1.append(time) }
      if started { out.2 += 1 }
    }
    return out
  }

  @Test func continuousTimestampsAreOnlyMovedToStartAtZero() {
    var stitcher = stitcher(startTime: 1.4)
    let (video, audio, epochs) = feed(&stitcher, videoStart: 1.4, audioStart: 1.4, frames: 100)
    #expect(epochs == 0)
    #expect(stitcher.discontinuities == 0)
    #expect(abs(video[0]) < 1e-9)
    #expect(abs(video[99] - 3.96) < 1e-6)
    #expect(abs(audio[0]) < 1e-9)
  }

  @Test func timestampResetFollowsOnFromWhereTheLatestStreamEnded() {
    var stitcher = stitcher(startTime: 1.4)
    let first = feed(&stitcher, videoStart: 1.4, audioStart: 1.4, frames: 150)
    // The second part starts its timestamps again, 6 s back.
    let second = feed(&stitcher, videoStart: 1.4, audioStart: 1.4, frames: 150)
    #expect(second.epochs == 1)
    #expect(stitcher.discontinuities == 1)
    let end = max(first.video.last! + 0.04, first.audio.last! + 1024 / 48_000)
    #expect(abs(second.video[0] - end) < 1e-4)
    #expect(zip(second.video, second.video.dropFirst()).allSatisfy { $0 < $1 })
    #expect(second.audio[0] >= first.audio.last!)
  }

  @Test func forwardJumpFarBeyondASegmentIsClosed() {
    var stitcher = stitcher()
    let first = feed(&stitcher, videoStart: 0, audioStart: 0, frames: 50)
    let second = feed(&stitcher, videoStart: 3600, audioStart: 3600, frames: 50)
    #expect(second.epochs == 1)
    #expect(second.video[0] - first.video.last! < 0.1)
  }

  @Test func gapShorterThanTheThresholdIsKept() {
    var stitcher = stitcher()
    let first = feed(&stitcher, videoStart: 0, audioStart: 0, frames: 50)
    let second = feed(&stitcher, videoStart: 4, audioStart: 4, frames: 50)
    #expect(second.epochs == 0)
    #expect(abs(second.video[0] - 4) < 1e-6)
    #expect(first.video[0] == 0)
  }

  /// Pins the drift a per-stream stitch would have: with audio ending a few milliseconds after
  /// video in every part, 2000 resets must not pull the streams apart.
  @Test func audioAndVideoStayInStepAcrossTwoThousandResets() {
    var stitcher = stitcher(startTime: 1.4)
    var last: (video: [Double], audio: [Double], epochs: Int) = ([], [], 0)
    var epochs = 0
    for _ in 0..<2000 {
      last = feed(&stitcher, videoStart: 1.4, audioStart: 1.39, frames: 50)
      epochs += last.epochs
    }
    #expect(epochs == 1999)
    // In each part audio starts 10 ms before video; it still does after 2000 parts.
    #expect(abs((last.video[0] - last.audio[0]) - 0.01) < 0.025)
  }

  @Test func subtitlesFollowTheLatestEpochWithoutStartingOne() {
    var stitcher = TimelineStitcher(
      timeBases: [Self.video, Self.audio], sparse: [false, true], startTime: 0, jumpThreshold: 5
    )
    _ = stitcher.stitch(.init(pts: 0, dts: 0), duration: 3600, stream: 0)
    _ = stitcher.stitch(.init(pts: 900_000, dts: 900_000), duration: 3600, stream: 0)
    // A subtitle far away in raw time does not start an epoch.
    let (cue, started) = stitcher.stitch(.init(pts: 48_000, dts: 48_000), duration: 0, stream: 1)
    #expect(!started)
    #expect(stitcher.discontinuities == 1)
    #expect(cue.pts != nil)
  }
}
