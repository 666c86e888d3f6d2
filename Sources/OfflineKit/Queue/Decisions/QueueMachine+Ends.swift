import Foundation
import OfflineStore

extension QueueMachine {
  /// What follows the end of a download that ran here.
  enum End: Sendable {
    /// It had been stopped on purpose (paused, canceled, waiting for the network): its
    /// bytes on disk are saved and its manifest says suspended; nothing else changes.
    case stopped
    /// Its file waits to be synced and recorded with others that finish near it
    /// (``GroupCommit``).
    case commit(Transfer.Outcome)
    /// It finished and synced itself: these steps record it downloaded.
    case finished([ManagerStep])
    /// It failed with `error`: ``didFail(_:of:record:progressed:at:retry:refresh:)``
    /// decides what follows, once the actor has read its record and its host's
    /// reachability.
    case failed(Transfer.Error, progressed: Bool, host: String)
  }

  /// The download of `id` ended with `outcome`.
  mutating func didEnd(_ id: String, outcome: Result<Transfer.Outcome, Transfer.Error>) -> End {
    guard let download = running.removeValue(forKey: id) else { return .stopped }
    switch outcome {
    case .success(let result) where download.syncsLater:
      return .commit(result)
    case .success(let result):
      return .finished(EndDecision.finished(length: result.length).steps)
    case .failure(let error):
      return .failed(error, progressed: download.progressed, host: download.host)
    }
  }

  /// A download of `id` failed (or its batch could not be made durable), with `record` what
  /// the index says of it now: ``EndDecision`` decides whether it waits, retries, asks the
  /// `refresh` hook for a fresh URL or is suspended, and the machine keeps the streak of
  /// fresh URLs asked for in a row.
  mutating func didFail(
    _ failure: EndDecision.Failure, of id: String, record: ContentRecord?, progressed: Bool,
    at now: Date, retry: RetryPolicy, refresh: URLRefresh?
  ) -> [ManagerStep] {
    let decision = EndDecision.failed(
      failure, state: record.map(\.offlineState), progressed: progressed,
      retryCount: record?.retryCount ?? 0, retry: retry, now: now,
      refresh: refresh.map { ($0, urlRefreshes[id] ?? URLRefresh.Streak()) })
    switch decision.verdict {
    case .refreshes(let streak): urlRefreshes[id] = streak
    case .stopped: break
    default: if failure.refusal != nil { urlRefreshes[id] = nil }  // refreshes used up
    }
    return decision.steps
  }

  /// The refresh hook is asked for a fresh URL for `id`: it is not started again with the
  /// old URL meanwhile.
  mutating func willAskForFreshURL(_ id: String) {
    stopping.insert(id)
  }

  /// What follows the refresh hook's answer.
  enum Refreshed: Sendable, Equatable {
    /// Go on with this URL.
    case goOn(URL)
    /// There is none: these steps suspend the content with the reason.
    case gaveUp([ManagerStep])
  }

  /// The refresh hook answered `answer` for `id`.
  mutating func didRefresh(_ id: String, answer: Result<URL, URLRefreshProblem>) -> Refreshed {
    stopping.remove(id)
    switch answer {
    case .success(let url):
      return .goOn(url)
    case .failure(let problem):
      return .gaveUp(
        refreshFailed(id, OfflineError(.urlRefreshFailed(problem.reason), contentID: id)))
    }
  }

  /// The fresh URL of `id` could not be used (`error`): the steps that suspend it, unless
  /// it left `downloading` meanwhile.
  mutating func refreshFailed(_ id: String, _ error: OfflineError) -> [ManagerStep] {
    urlRefreshes[id] = nil
    return EndDecision.refreshFailed(error).steps
  }
}
