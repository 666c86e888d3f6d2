import Foundation
import OfflineStore
import TestTiming
import Testing

@testable import OfflineKit

/// Issue 38, item 1: what the manager does for a running download's progress report (the
/// wait reason cleared, the move announced, the bytes saved), decided inline between index
/// writes before, is a value: each row runs with no index and no clock.
@Suite(.timed) struct ProgressStepsTests {
  static let start = ContinuousClock.now

  /// A download launched from the queue, whose row the index still says `queued` for
  /// unless `indexed` says otherwise.
  static func running(
    syncsLater: Bool = false, announcesMoving: Bool = false,
    indexed: ContentWaitReason? = .queued
  ) -> RunningDownload {
    var download = RunningDownload(
      task: Task {}, host: "example.com", launchedURL: "http://example.com/a", lastSaved: start)
    download.syncsLater = syncsLater
    download.announcesMoving = announcesMoving
    download.indexedReason = indexed
    return download
  }

  @Test func theFirstReportClearsTheWaitReasonAndAnnouncesOnlyAfterAWaitTold() {
    var plain = Self.running()
    #expect(
      plain.didProgress(OfflineProgress(bytes: 10, total: 100), at: Self.start)
        == .init(recordsMoving: true))
    var waited = Self.running(announcesMoving: true)
    #expect(
      waited.didProgress(OfflineProgress(bytes: 10, total: 100), at: Self.start)
        == .init(recordsMoving: true, announcesMoving: true))
    // Later reports: neither again.
    #expect(waited.didProgress(OfflineProgress(bytes: 20, total: 100), at: Self.start) == .init())
    #expect(waited.bytes.first == 10 && waited.bytes.last == 20 && waited.progressed)
  }

  /// Pins the cost of a thousand small files: one whose first report holds all its bytes
  /// and whose batch records it downloaded writes no wait reason of its own.
  @Test func aBatchSyncedFileThatArrivedWholeWritesNoWaitReason() {
    var whole = Self.running(syncsLater: true)
    #expect(whole.didProgress(OfflineProgress(bytes: 100, total: 100), at: Self.start) == .init())
    var estimated = Self.running(syncsLater: true)
    #expect(
      estimated.didProgress(
        OfflineProgress(bytes: 100, total: 100, totalIsEstimate: true), at: Self.start)
        == .init(recordsMoving: true))
    var selfSynced = Self.running()
    #expect(
      selfSynced.didProgress(OfflineProgress(bytes: 100, total: 100), at: Self.start)
        == .init(recordsMoving: true))
  }

  /// Pins a write per file: the runner cleared a reason the index did not hold. A row whose
  /// reason is already none (the runner cleared it, or none was ever written) is not
  /// written again when its bytes come; one the runner's turn marked `starting` is.
  @Test func theFirstReportClearsOnlyAReasonTheIndexHolds() {
    var clear = Self.running(indexed: nil)
    #expect(clear.didProgress(OfflineProgress(bytes: 10, total: 100), at: Self.start) == .init())
    var marked = Self.running(indexed: .starting)
    #expect(
      marked.didProgress(OfflineProgress(bytes: 10, total: 100), at: Self.start)
        == .init(recordsMoving: true))
    #expect(marked.indexedReason == nil, "cleared once: the next reports write nothing")
  }

  /// Subscribers see a launched download `starting` until its bytes come and running after,
  /// before the runner has written either; a reason the index holds otherwise stands.
  @Test func aRunningDownloadIsSeenStartingThenRunningWhateverTheIndexSaysYet() {
    var download = Self.running()
    #expect(download.waitReason(indexed: .queued) == .starting)
    #expect(download.waitReason(indexed: nil) == .starting)
    _ = download.didProgress(OfflineProgress(bytes: 10, total: 100), at: Self.start)
    #expect(download.waitReason(indexed: .queued) == nil)
    #expect(download.waitReason(indexed: .starting) == nil)
    #expect(download.waitReason(indexed: .network) == .network)
  }

  @Test func progressIsSavedAtMostOnceASecond() {
    var download = Self.running()
    _ = download.didProgress(OfflineProgress(bytes: 1, total: nil), at: Self.start)
    let soon = Self.start + .milliseconds(999)
    #expect(!download.didProgress(OfflineProgress(bytes: 2, total: nil), at: soon).savesProgress)
    let second = Self.start + .seconds(1)
    #expect(download.didProgress(OfflineProgress(bytes: 3, total: nil), at: second).savesProgress)
    let after = second + .milliseconds(500)
    #expect(!download.didProgress(OfflineProgress(bytes: 4, total: nil), at: after).savesProgress)
  }
}
