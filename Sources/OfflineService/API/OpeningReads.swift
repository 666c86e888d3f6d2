import Foundation
import OfflineLocks

/// Reads of the event stream's opening (every content as it is now), shared by the
/// subscribers that wait for one together: however many subscribe at once, one read runs at
/// a time, and each waiter gets the first read that *starts* after it asked (it registered
/// its stream before asking, so no event falls between that read and its stream).
final class OpeningReads: Sendable {
  private let read: @Sendable () async -> Data
  private let state = Locked(State())

  private struct State {
    var waiting: [CheckedContinuation<Data, Never>] = []
    var reading = false
  }

  /// Shares the reads of `read`.
  init(read: @escaping @Sendable () async -> Data) {
    self.read = read
  }

  /// The result of a read started after this call.
  func next() async -> Data {
    await withCheckedContinuation { (waiter: CheckedContinuation<Data, Never>) in
      let starts = state.withLock { state in
        state.waiting.append(waiter)
        defer { state.reading = true }
        return !state.reading
      }
      if starts { Task { await self.readWhileAsked() } }
    }
  }

  /// Reads for those waiting, and again for those who came during a read, until none waits.
  private func readWhileAsked() async {
    while true {
      let batch = state.withLock { state in
        defer { state.waiting = [] }
        if state.waiting.isEmpty { state.reading = false }
        return state.waiting
      }
      guard !batch.isEmpty else { return }
      let opening = await read()
      for waiter in batch { waiter.resume(returning: opening) }
    }
  }
}
