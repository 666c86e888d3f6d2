import TestTiming
import Testing

@testable import OfflineKit

/// The rules of a stream's progress, one per test, without I/O: pieces are described by
/// hand and fed the events the runner sees (started, bytes with the total a response stated,
/// finished).
///
/// Pins issue 12, "HLS progress is wrong": the old tally clamped its total to the bytes
/// received (1.000 and "0 s left" long before the end), ignored the `Content-Length` of
/// pieces in flight, and corrected a fixed-bitrate guess by one ratio for all renditions,
/// so the fraction sat at 2-5 % and jumped, or went backwards when that ratio changed.
@Suite(.timed) struct HLSProgressTallyTests {
  typealias Piece = StreamProgressTally.Piece

  func fraction(_ progress: StreamProgress) -> Double {
    Double(progress.bytes) / Double(progress.total)
  }

  /// A video piece of one second that the playlist guessed at 1000 bytes.
  static let video = Piece(plannedBytes: 1000)

  @Test func byteRangeSlicesAreExactFromTheStart() {
    var tally = StreamProgressTally(pieces: [
      Piece(exactBytes: 1000, plannedBytes: 1000, segments: 2, duration: 2),
      Piece(exactBytes: 3000, plannedBytes: 3000, segments: 5, duration: 5),
    ])
    let first = tally.progress()
    #expect(first.total == 4000)
    #expect(first.bytes == 0)
    #expect(!first.totalIsEstimate)
  }

  @Test func aPiecesContentLengthReplacesItsEstimateAsSoonAsItsHeadArrives() {
    var tally = StreamProgressTally(pieces: [
      Self.video, Piece(plannedBytes: 1000, rendition: 1), Piece(plannedBytes: 1000, rendition: 2),
    ])
    tally.pieceStarted(0, total: nil)
    tally.pieceProgress(0, bytes: 100, total: 5000)
    let progress = tally.progress()
    #expect(progress.bytes == 100)
    #expect(progress.total == 7000, "5000 stated by the response, 1000 + 1000 guessed")
    #expect(progress.totalIsEstimate)
  }

  @Test func finishedPiecesCountTheirActualLength() {
    var tally = StreamProgressTally(pieces: [
      Self.video, Piece(plannedBytes: 1000, rendition: 1), Piece(plannedBytes: 1000, rendition: 2),
    ])
    tally.pieceStarted(0, total: nil)
    tally.pieceFinished(0, length: 800)
    let progress = tally.progress()
    #expect(progress.bytes == 800)
    #expect(progress.total == 2800, "other renditions keep their own estimates")
  }

  @Test func unknownPiecesAreEstimatedFromTheirRenditionsBytesPerSecondWeightedByDuration() {
    var tally = StreamProgressTally(pieces: [
      Piece(plannedBytes: 10_000, duration: 2), Piece(plannedBytes: 10_000, duration: 1),
      Piece(plannedBytes: 10_000, duration: 4), Piece(plannedBytes: 10_000, duration: 1),
    ])
    tally.pieceFinished(0, length: 400)  // 200 bytes a second
    tally.pieceProgress(1, bytes: 0, total: 300)  // 300 bytes a second, known from its head
    // (400 + 300) / 3 s, not the mean of 200 and 300: 233.3 bytes a second of media.
    let progress = tally.progress()
    #expect(abs(progress.total - (400 + 300 + 933 + 233)) <= 2, "\(progress.total)")
    #expect(progress.totalIsEstimate)
  }

  @Test func theBandwidthGuessIsUsedOnlyForARenditionWithNothingKnown() {
    var tally = StreamProgressTally(pieces: [
      Piece(plannedBytes: 5000), Piece(plannedBytes: 5000),
      Piece(plannedBytes: 400, rendition: 1), Piece(plannedBytes: 400, rendition: 1),
    ])
    #expect(tally.progress().total == 10_800, "nothing known: BANDWIDTH × duration")
    tally.pieceFinished(0, length: 1000)
    #expect(tally.progress().total == 2800, "video from its own piece, audio still guessed")
    tally.pieceFinished(2, length: 100)
    #expect(tally.progress().total == 2200, "audio from its own piece, not from video's rate")
  }

  @Test func initSectionsKeepTheirGuessUntilTheirSizeIsKnown() {
    var tally = StreamProgressTally(pieces: [
      Piece(plannedBytes: 4096, segments: 0, duration: 0), Self.video, Self.video,
    ])
    tally.pieceFinished(1, length: 500)
    #expect(tally.progress().total == 4096 + 500 + 500)
    tally.pieceProgress(0, bytes: 10, total: 700)
    #expect(tally.progress().total == 700 + 500 + 500)
  }

  @Test func theFractionNeverMovesBackwardsWhenTheEstimateRises() {
    var tally = StreamProgressTally(pieces: Array(repeating: Self.video, count: 4))
    var reports: [StreamProgress] = []
    tally.pieceFinished(0, length: 100)
    reports.append(tally.progress())
    tally.pieceProgress(1, bytes: 900, total: nil)  // larger than the first one suggested
    reports.append(tally.progress())
    tally.pieceFinished(1, length: 1000)
    reports.append(tally.progress())
    tally.pieceProgress(2, bytes: 10, total: 5000)
    reports.append(tally.progress())
    for (earlier, later) in zip(reports, reports.dropFirst()) {
      #expect(fraction(later) >= fraction(earlier), "\(earlier) then \(later)")
    }
    #expect(reports.allSatisfy { $0.totalIsEstimate }, "a total held back is not the real one")
  }

  @Test func theFractionStaysBelowOneUntilTheLastPieceFinishes() {
    var tally = StreamProgressTally(pieces: [
      Piece(exactBytes: 100, plannedBytes: 100), Piece(exactBytes: 100, plannedBytes: 100),
    ])
    tally.pieceFinished(0, length: 100)
    tally.pieceProgress(1, bytes: 100, total: 100)  // every byte, not yet verified
    let verifying = tally.progress()
    #expect(verifying.total > verifying.bytes)
    #expect(fraction(verifying) < 1)
    var guessedLow = StreamProgressTally(pieces: [Self.video, Self.video])
    guessedLow.pieceProgress(0, bytes: 3000, total: nil)
    guessedLow.pieceProgress(1, bytes: 3000, total: nil)
    let running = guessedLow.progress()
    #expect(running.total > running.bytes, "\(running)")
  }

  @Test func theTotalIsAnEstimateUntilEverySizeIsKnown() {
    var tally = StreamProgressTally(pieces: [Self.video, Self.video])
    tally.pieceProgress(0, bytes: 10, total: 800)
    #expect(tally.progress().totalIsEstimate)
    tally.pieceProgress(1, bytes: 10, total: 600)
    let known = tally.progress()
    #expect(!known.totalIsEstimate)
    #expect(known.total == 1400)
  }

  @Test func segmentsAreCountedDoneWhenTheirPieceFinishes() {
    var tally = StreamProgressTally(pieces: [
      Piece(plannedBytes: 4096, segments: 0, duration: 0),
      Piece(exactBytes: 900, plannedBytes: 900, segments: 3, duration: 3), Self.video,
    ])
    #expect(tally.progress().segmentsPlanned == 4)
    tally.pieceProgress(1, bytes: 899, total: 900)
    #expect(tally.progress().segmentsDone == 0)
    tally.pieceFinished(1, length: 900)
    tally.pieceFinished(0, length: 700)
    #expect(tally.progress().segmentsDone == 3)
  }

  @Test func aPieceThatStartsOverKeepsItsBytesUntilItPassesThem() {
    var tally = StreamProgressTally(pieces: [Self.video, Self.video])
    tally.pieceProgress(0, bytes: 500, total: 1000)
    let before = tally.progress()
    tally.pieceProgress(0, bytes: 0, total: 1000)  // a restart from byte 0
    let after = tally.progress()
    #expect(after.bytes >= before.bytes)
    #expect(fraction(after) >= fraction(before))
  }

  @Test func theLastReportIsTheSumOfTheLengthsAndExact() {
    var tally = StreamProgressTally(pieces: [
      Self.video, Piece(exactBytes: 300, plannedBytes: 300), Self.video,
    ])
    tally.pieceProgress(0, bytes: 5000, total: nil)
    _ = tally.progress()
    tally.pieceFinished(0, length: 6000)
    tally.pieceFinished(1, length: 300)
    tally.pieceFinished(2, length: 10)
    let last = tally.progress()
    #expect(last.bytes == 6310)
    #expect(last.total == 6310)
    #expect(!last.totalIsEstimate)
  }
}
