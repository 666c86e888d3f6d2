import Foundation
import OfflineLocks

/// Runs a cache download and stops it as soon as its length is known to exceed what the
/// storage policy allows, so a too-large file never fills the disk.
final class DownloadWatch: Sendable {
  private let limit: Int64?
  private let state = Locked(State())

  private struct State {
    var task: Task<Result<Transfer.Outcome, Transfer.Error>, Never>?
    var refusedLength: Int64?
  }

  init(limit: Int64?) {
    self.limit = limit
  }

  /// The length that was refused, when the download was stopped for it.
  var refusedLength: Int64? { state.withLock { $0.refusedLength } }

  /// Runs `transfer` to its end (a refused length ends it as cancelled).
  func run(_ transfer: Transfer) async -> Result<Transfer.Outcome, Transfer.Error> {
    let task = Task { [self] () -> Result<Transfer.Outcome, Transfer.Error> in
      do throws(Transfer.Error) {
        return .success(try await transfer.run { self.observe($0) })
      } catch {
        return .failure(error)
      }
    }
    let refused = state.withLock { state -> Bool in
      state.task = task
      return state.refusedLength != nil
    }
    if refused { task.cancel() }
    return await task.value
  }

  /// Called on the transfer's tasks with each event; refuses a length over the limit.
  private func observe(_ event: Transfer.Event) {
    guard let limit, case .progress(let progress) = event, let total = progress.total,
      total > limit
    else { return }
    let task = state.withLock { state in
      if state.refusedLength == nil { state.refusedLength = total }
      return state.task
    }
    task?.cancel()
  }
}
