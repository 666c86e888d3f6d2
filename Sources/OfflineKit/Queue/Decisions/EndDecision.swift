import Foundation
import OfflineStore

/// What the manager does when a content's download ends, or cannot start, as a value.
///
/// | the download | verdict | steps |
/// |---|---|---|
/// | completed | `finished` | `downloaded` with its length, wait, retries and error cleared; `finished` |
/// | stopped on purpose (suspend, cancel, network lost) | `stopped` | none |
/// | the content is no longer `downloading` | `stopped` | none |
/// | refused (401, 403, 410) with a ``URLRefresh`` hook and refreshes in a row left | `refreshes` | the hook asked for a fresh URL |
/// | threw its bytes away (a checksum mismatch) | `discarded` | manifests and files deleted, progress reset, `notDownloaded` with the error; `failed` |
/// | out of space | `waits(.storage)` | waits for space |
/// | a transient failure with the host unreachable | `waits(.network)` | waits for the network |
/// | a transient failure, retries left | `retries` | the failure count, retry time and error recorded; `change` |
/// | a refresh that gave no fresh URL | `suspended` | `suspended` with the error, its manifest; `failed` |
/// | any other failure, or retries used up | `suspended` | `suspended` with the error, its manifest; `failed` |
///
/// Every `move` tells subscribers where the content stands (`changed`); the `finished` and
/// `failed` notices end the attempt (`finished(Result)`).
///
/// A download that received bytes starts its failure count over: only failures in a row
/// without progress use up retries.
struct EndDecision: Sendable, Equatable {
  /// What happened, in short.
  enum Verdict: Sendable, Equatable {
    case finished
    case stopped
    case discarded
    case waits(WaitReason)
    case retries(failures: Int, at: Date)
    case suspended(failures: Int)
    /// A fresh URL is asked for; `streak` counts the refreshes in a row from now on.
    case refreshes(streak: URLRefresh.Streak)
  }

  /// What the decision knows of a failed download.
  struct Failure: Sendable {
    /// The error as subscribers see it.
    var error: OfflineError
    /// Whether the transfer was cancelled (a suspend, a cancel, a lost network).
    var wasCancelled: Bool
    /// Whether it threw its bytes away.
    var discardedData: Bool
    /// Whether the disk was full.
    var isOutOfSpace: Bool
    /// Whether trying again may help (a cut, a stall, 5xx, 429...).
    var isTransient: Bool
    /// Whether the content's host is unreachable now.
    var hostIsUnreachable: Bool
    /// How long the server asked to wait, if it did.
    var retryAfter: Duration?
    /// The refusal status a fresh URL may cure (401, 403, 410), if it was one.
    var refusal: Int?

    init(_ error: Transfer.Error, contentID: String, hostIsUnreachable: Bool) {
      self.error = OfflineError(.transfer(error), contentID: contentID)
      if case .canceled = error.kind { wasCancelled = true } else { wasCancelled = false }
      discardedData = error.discardedData
      isOutOfSpace = error.isOutOfSpace
      isTransient = error.isTransient
      self.hostIsUnreachable = hostIsUnreachable
      retryAfter = error.retryAfter
      refusal = URLRefresh.refusal(error)
    }
  }

  /// The verdict.
  let verdict: Verdict
  /// What the actor does for it, in order.
  let steps: [ManagerStep]

  /// The decision for a download that completed with `length` bytes.
  static func finished(length: Int64) -> EndDecision {
    EndDecision(
      verdict: .finished,
      steps: [
        .reach(.finishBeforeDownloaded),
        .move(.finished, finishedEdits(length: length)), .send(.finished),
      ])
  }

  /// What a download that completed with `length` bytes writes with `downloaded`, alone or
  /// in a batch of finished files made durable together.
  static func finishedEdits(length: Int64) -> [RecordEdit] {
    [.bytes(length), .knownTotal(length), .waitReason(nil), .retryCount(0), .lastError(nil)]
  }

  /// Records `record`'s file of `length` bytes downloaded, as one row of a batch of
  /// finished files made durable together (``GroupCommit``): false, leaving it as it is,
  /// when it is no longer `downloading` (suspended, canceled or deleted while the batch
  /// synced).
  static func recordBatchFinished(_ record: inout ContentRecord, length: Int64) -> Bool {
    guard let after = OfflineStateMachine.state(after: .finished, from: record.offlineState)
    else { return false }
    record.state = after.stored
    finishedEdits(length: length).apply(to: &record)
    return true
  }

  /// The decision for a download that failed.
  ///
  /// - Parameters:
  ///   - state: the content's state now, nil when it is gone.
  ///   - progressed: whether bytes arrived during the attempt.
  ///   - retryCount: failures in a row before this one.
  ///   - retry: the manager's retry policy.
  ///   - now: the time a retry is counted from.
  ///   - refresh: the URL refresh hook, if any, and the content's refreshes in a row so far.
  static func failed(
    _ failure: Failure, state: OfflineState?, progressed: Bool, retryCount: Int,
    retry: RetryPolicy, now: Date,
    refresh: (hook: URLRefresh, streak: URLRefresh.Streak)? = nil
  ) -> EndDecision {
    guard !failure.wasCancelled, state == .downloading else {
      return EndDecision(verdict: .stopped, steps: [])
    }
    if let status = failure.refusal, let refresh {
      var streak = refresh.streak
      if streak.allowsAnother(of: refresh.hook, progressed: progressed) {
        return EndDecision(verdict: .refreshes(streak: streak), steps: [.askForFreshURL(status)])
      }
    }
    let error = failure.error
    if failure.discardedData {
      return EndDecision(
        verdict: .discarded,
        steps: [
          .forgetManifests, .deleteFiles, .resetProgress,
          .move(
            .failedDiscardingData,
            [.bytes(0), .waitReason(nil), .retryCount(0), .lastError(error)]),
          .send(.failed(error)),
        ])
    }
    if failure.isOutOfSpace {
      return EndDecision(verdict: .waits(.storage), steps: [.wait(.storage)])
    }
    if failure.isTransient, failure.hostIsUnreachable {
      return EndDecision(verdict: .waits(.network), steps: [.wait(.network)])
    }
    let failures = progressed ? 1 : retryCount + 1
    if failure.isTransient, failures < retry.maximumAttempts {
      let delay = retry.delay(afterFailures: failures, retryAfter: failure.retryAfter)
      let at = now.addingTimeInterval(delay / .seconds(1))
      return EndDecision(
        verdict: .retries(failures: failures, at: at),
        steps: [
          .update([.retryCount(failures), .waitReason(.retry(at: at)), .lastError(error)]),
          .send(.change),
        ])
    }
    return EndDecision(
      verdict: .suspended(failures: failures),
      steps: [
        .move(.failedKeepingData, [.retryCount(failures), .waitReason(nil), .lastError(error)]),
        .recordSuspended, .send(.failed(error)),
      ])
  }

  /// The decision for a content that cannot start: its stored options cannot be read, or it
  /// cannot fit even on the empty disk. It is suspended with `error`; retrying would not help.
  static func cannotStart(_ error: OfflineError) -> EndDecision {
    EndDecision(
      verdict: .suspended(failures: 0),
      steps: [
        .move(.failedKeepingData, [.waitReason(nil), .lastError(error)]),
        .send(.failed(error)),
      ])
  }

  /// The decision for a content whose URL refresh gave no fresh URL (the hook failed, took
  /// too long, or gave no http or https URL): it is suspended with `error`, its partial data
  /// kept, and the attempt ends.
  static func refreshFailed(_ error: OfflineError) -> EndDecision {
    EndDecision(
      verdict: .suspended(failures: 0),
      steps: [
        .move(.failedKeepingData, [.waitReason(nil), .lastError(error)]),
        .recordSuspended, .send(.failed(error)),
      ])
  }

  static func == (lhs: EndDecision, rhs: EndDecision) -> Bool {
    lhs.verdict == rhs.verdict && lhs.steps == rhs.steps
  }
}
