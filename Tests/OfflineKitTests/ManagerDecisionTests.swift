import Foundation
import OfflineStore
import TestTiming
import Testing

@testable import OfflineKit

/// The manager's decisions as values, one row of their tables per test, without I/O
/// (issue 12, item 2: the rules lived inline in the actor, between index writes and file
/// deletions, and no test could read one rule alone).
@Suite(.timed) struct ManagerDecisionTests {
  static let now = Date(timeIntervalSince1970: 1_800_000_000)
  static let retry = RetryPolicy(maximumAttempts: 3)
  static let cleared: [RecordEdit] = [.waitReason(.queued), .retryCount(0), .lastError(nil)]

  static func error(_ kind: Transfer.Error.Kind) -> Transfer.Error {
    Transfer.Error(kind, url: URL(string: "https://example.com/a.bin")!, destination: "/d/a.bin")
  }

  static func decision(
    _ kind: Transfer.Error.Kind, state: OfflineState? = .downloading, progressed: Bool = false,
    retryCount: Int = 0, unreachable: Bool = false
  ) -> EndDecision {
    EndDecision.failed(
      EndDecision.Failure(error(kind), contentID: "c1", hostIsUnreachable: unreachable),
      state: state, progressed: progressed, retryCount: retryCount, retry: retry, now: now)
  }

  static func failure(_ kind: Transfer.Error.Kind) -> OfflineError {
    OfflineError(.transfer(error(kind)), contentID: "c1")
  }

  // MARK: Calls

  @Test func downloadStoresTheConfigFromZeroAndQueuesAtTheEnd() throws {
    let config = try DownloadConfiguration(
      expectedSHA256: String(repeating: "ab", count: 32), priority: 3)
    let decision = CallDecision(.download, configuration: config, wasRunningHere: false)
    #expect(
      decision.edits
        == [
          .priority(3), .expectedSHA256(String(repeating: "ab", count: 32)),
          .options(config.storedOptions), .bytes(0),
        ] + Self.cleared)
    #expect(decision.movesToEnd)
    #expect(decision.steps == [.recordQueued, .resetProgress, .pump])
  }

  /// Its transition tells subscribers (`changed`): a second `resumed` notice made two
  /// events of one change (issue 37, item 4).
  @Test func resumeQueuesWithRetriesAndErrorClearedAndStartsWhatMay() {
    let decision = CallDecision(.resume, wasRunningHere: false)
    #expect(decision.edits == Self.cleared)
    #expect(!decision.movesToEnd)
    #expect(decision.steps == [.pump])
  }

  @Test func suspendOfADownloadRunningHereLeavesTheManifestToItsEnd() {
    let decision = CallDecision(.suspend, wasRunningHere: true)
    #expect(decision.edits == [.waitReason(nil)])
    #expect(decision.steps == [.stopRunning])
  }

  @Test func suspendOfADownloadNotRunningHereRecordsTheManifestUnlessARunnerDoes() {
    let decision = CallDecision(.suspend, wasRunningHere: false)
    #expect(
      decision.steps == [.stopRunning, .recordSuspendedUnlessAnotherProcessRuns])
  }

  /// The error is cleared so that another process that sees the content back in
  /// notDownloaded tells a cancel from a failure that discarded the bytes.
  @Test func cancelStopsTheDownloadThenCleansUpWhereThisProcessMay() {
    let decision = CallDecision(.cancel, wasRunningHere: true)
    #expect(decision.edits == [.pendingCleanup(true), .waitReason(nil), .lastError(nil)])
    #expect(
      decision.steps == [.reach(.cancelAfterCanceling), .stopRunning, .finishCleanupIfRunner])
  }

  @Test func deleteRecordsTheIntentBeforeAnyFileGoes() {
    let decision = CallDecision(.delete, wasRunningHere: false)
    #expect(decision.edits == [.pendingCleanup(true), .waitReason(nil)])
    #expect(decision.steps == [.reach(.deleteAfterIntent), .finishCleanupIfRunner])
    #expect(!decision.steps.contains(.stopRunning))
  }

  // MARK: Ends

  @Test func aCompletedDownloadIsDownloadedWithItsLengthAndSaysFinished() {
    let decision = EndDecision.finished(length: 4096)
    #expect(decision.verdict == .finished)
    #expect(
      decision.steps == [
        .reach(.finishBeforeDownloaded),
        .move(
          .finished,
          [.bytes(4096), .knownTotal(4096), .waitReason(nil), .retryCount(0), .lastError(nil)]),
        .send(.finished),
      ])
  }

  @Test func aDownloadStoppedOnPurposeChangesNothing() {
    let decision = Self.decision(.canceled)
    #expect(decision.verdict == .stopped)
    #expect(decision.steps.isEmpty)
  }

  @Test func aFailureOfAContentNoLongerDownloadingChangesNothing() {
    for state in [OfflineState.suspended, .canceling, .notDownloaded] {
      #expect(Self.decision(.status(503, retryAfter: nil), state: state).steps.isEmpty)
    }
    #expect(Self.decision(.status(503, retryAfter: nil), state: nil).steps.isEmpty)
  }

  @Test func aChecksumMismatchDeletesEverythingAndEndsNotDownloadedWithTheError() {
    let kind = Transfer.Error.Kind.checksumMismatch(expected: "aa", actual: "bb")
    let decision = Self.decision(kind)
    let error = Self.failure(kind)
    #expect(decision.verdict == .discarded)
    #expect(
      decision.steps == [
        .forgetManifests, .deleteFiles, .resetProgress,
        .move(
          .failedDiscardingData, [.bytes(0), .waitReason(nil), .retryCount(0), .lastError(error)]),
        .send(.failed(error)),
      ])
  }

  @Test func aFullDiskWaitsForStorageWithoutUsingARetry() {
    let decision = Self.decision(.file(TransferFileError(.write, errno: ENOSPC, path: "/d/a.part")))
    #expect(decision.verdict == .waits(.storage))
    #expect(decision.steps == [.wait(.storage)])
  }

  @Test func aTransientFailureWithTheHostUnreachableWaitsForTheNetwork() {
    let decision = Self.decision(.status(503, retryAfter: nil), retryCount: 2, unreachable: true)
    #expect(decision.verdict == .waits(.network))
    #expect(decision.steps == [.wait(.network)])
  }

  @Test func aPermanentFailureWithTheHostUnreachableIsSuspendedAllTheSame() {
    let decision = Self.decision(.status(404, retryAfter: nil), unreachable: true)
    #expect(decision.verdict == .suspended(failures: 1))
  }

  @Test func aTransientFailureWithRetriesLeftWaitsTheTimeTheServerAskedFor() {
    let kind = Transfer.Error.Kind.status(503, retryAfter: .seconds(7))
    let decision = Self.decision(kind, retryCount: 1)
    let at = Self.now.addingTimeInterval(7)
    #expect(decision.verdict == .retries(failures: 2, at: at))
    #expect(
      decision.steps == [
        .update([.retryCount(2), .waitReason(.retry(at: at)), .lastError(Self.failure(kind))]),
        .send(.change),
      ])
  }

  @Test func aTransientFailureWithRetriesUsedUpIsSuspendedWithTheError() {
    let kind = Transfer.Error.Kind.status(503, retryAfter: nil)
    let decision = Self.decision(kind, retryCount: 2)
    let error = Self.failure(kind)
    #expect(decision.verdict == .suspended(failures: 3))
    #expect(
      decision.steps == [
        .move(.failedKeepingData, [.retryCount(3), .waitReason(nil), .lastError(error)]),
        .recordSuspended, .send(.failed(error)),
      ])
  }

  @Test func anAttemptThatReceivedBytesStartsTheFailureCountOver() {
    let decision = Self.decision(
      .status(503, retryAfter: .seconds(1)), progressed: true, retryCount: 2)
    #expect(decision.verdict == .retries(failures: 1, at: Self.now.addingTimeInterval(1)))
  }

  @Test func aPermanentFailureIsSuspendedAtOnce() {
    #expect(Self.decision(.status(404, retryAfter: nil)).verdict == .suspended(failures: 1))
  }

  @Test func aContentThatCannotStartIsSuspendedWithItsErrorAndNoManifestYet() {
    let error = OfflineError(.unknownContent("c1"), contentID: "c1")
    let decision = EndDecision.cannotStart(error)
    #expect(
      decision.steps == [
        .move(.failedKeepingData, [.waitReason(nil), .lastError(error)]),
        .send(.failed(error)),
      ])
  }

  /// Issue 38, item 1: the refresh row, decided before in `refreshesURL` between two index
  /// reads, outside the table.
  @Test func aRefusalAsksTheHookForAFreshURLWhileRefreshesInARowAreLeft() {
    let hook = URLRefresh(maximumInARow: 2) { $0.url }
    func decision(
      _ status: Int, streak: URLRefresh.Streak, progressed: Bool = false,
      state: OfflineState = .downloading
    ) -> EndDecision {
      EndDecision.failed(
        EndDecision.Failure(
          Self.error(.status(status, retryAfter: nil)), contentID: "c1", hostIsUnreachable: false),
        state: state, progressed: progressed, retryCount: 0, retry: Self.retry, now: Self.now,
        refresh: (hook, streak))
    }
    var one = URLRefresh.Streak()
    _ = one.allowsAnother(of: hook, progressed: false)
    var two = one
    _ = two.allowsAnother(of: hook, progressed: false)

    let first = decision(403, streak: URLRefresh.Streak())
    #expect(first.verdict == .refreshes(streak: one) && first.steps == [.askForFreshURL(403)])
    #expect(decision(410, streak: one).verdict == .refreshes(streak: two))
    // Used up: the refusal is a failure like any other (a 403 is not transient).
    #expect(decision(401, streak: two).verdict == .suspended(failures: 1))
    // Bytes arrived in the attempt: the count starts over.
    #expect(decision(403, streak: two, progressed: true).verdict == .refreshes(streak: one))
    // Not a refusal, or no longer downloading: no refresh.
    #expect(decision(404, streak: URLRefresh.Streak()).verdict == .suspended(failures: 1))
    #expect(decision(403, streak: URLRefresh.Streak(), state: .suspended).verdict == .stopped)
    // No hook: the table as before.
    #expect(Self.decision(.status(403, retryAfter: nil)).verdict == .suspended(failures: 1))
  }

  /// Issue 38, item 1: the row a failed refresh spelt again by hand in the actor.
  @Test func aRefreshThatGaveNoURLSuspendsKeepingTheDataAndEndsTheAttempt() {
    let error = OfflineError(.urlRefreshFailed("the hook failed"), contentID: "c1")
    let decision = EndDecision.refreshFailed(error)
    #expect(decision.verdict == .suspended(failures: 0))
    #expect(
      decision.steps == [
        .move(.failedKeepingData, [.waitReason(nil), .lastError(error)]), .recordSuspended,
        .send(.failed(error)),
      ])
  }

  // MARK: Cleanup

  @Test func aFinishedCancelEndsNotDownloadedByTheTableAndSaysCanceled() {
    #expect(
      CleanupDecision.afterDeletingFiles(state: .canceling) == [
        .reach(.cleanupAfterDeletingFiles), .resetProgress,
        .move(.cancelFinished, [.pendingCleanup(false), .bytes(0)]), .send(.canceled),
      ])
  }

  @Test func aFinishedDeleteSaysTheFilesAreGoneWithoutAnEvent() {
    for state in [OfflineState.notDownloaded, .downloading, .downloaded] {
      #expect(
        CleanupDecision.afterDeletingFiles(state: state) == [
          .reach(.cleanupAfterDeletingFiles), .resetProgress, .update([.filesGone]),
        ])
    }
  }

  @Test func recoveryLeavesAContentWhoseFilesWentNotDownloadedAndNotWaiting() {
    var record = ContentRecord(
      id: "c1", url: "https://example.com/a.bin", fileName: "a.bin", state: .canceling,
      bytes: 500, waitReason: .queued, pendingCleanup: true)
    CleanupDecision.recovered.apply(to: &record)
    #expect(record.state == .notDownloaded && record.bytes == 0)
    #expect(!record.pendingCleanup && record.waitReason == nil)
  }

  // MARK: Edits

  @Test func editsWriteTheirFieldsAndNothingElse() {
    var record = ContentRecord(
      id: "c1", url: "https://example.com/a.bin", fileName: "a.bin", state: .downloading)
    record.lastError = "old"
    record.lastErrorKind = "status"
    record.total = 10
    record.totalIsEstimate = true
    let untouched = record
    [RecordEdit.knownTotal(99), .lastError(nil), .pendingCleanup(true)].apply(to: &record)
    #expect(record.total == 99 && !record.totalIsEstimate)
    #expect(record.lastError == nil && record.lastErrorKind == nil)
    #expect(record.pendingCleanup)
    #expect(record.bytes == untouched.bytes && record.priority == untouched.priority)
    #expect(record.state == untouched.state && record.waitReason == untouched.waitReason)
  }
}

extension ManagerDecisionTests {
  /// Issue 38, item 1: the row `batchSynced` spelt inline in its update closure. A content
  /// suspended or canceled while its batch synced is left as it is.
  @Test func aBatchRecordsOnlyContentsStillDownloading() {
    var record = ContentRecord(
      id: "c1", url: "https://a.test/a.bin", fileName: "a.bin", state: .downloading,
      bytes: 3, waitReason: .starting, retryCount: 2)
    #expect(EndDecision.recordBatchFinished(&record, length: 9))
    #expect(record.state == .downloaded && record.bytes == 9 && record.total == 9)
    #expect(record.waitReason == nil && record.retryCount == 0)
    for state in [ContentState.suspended, .canceling, .notDownloaded] {
      var left = ContentRecord(
        id: "c2", url: "https://a.test/b.bin", fileName: "b.bin", state: state)
      let before = left
      #expect(!EndDecision.recordBatchFinished(&left, length: 9))
      #expect(left == before)
    }
  }
}
