import Foundation

extension Transfer {
  /// Runs the transfer and gives what happens as the events a queued content gives:
  /// `progress`, `restarted` when it starts over from byte 0, and one `finished` at the end,
  /// with the file (complete, and verified when a SHA-256 was expected) or the error. The
  /// sequence ends after `finished`.
  ///
  /// The run starts at once, on a task of its own. Breaking out of the loop, or dropping the
  /// sequence, cancels it: the partial file and its journal are kept for the next run.
  /// Only progress is coalesced for a slow consumer.
  ///
  /// ```swift
  /// for await event in transfer.events() {
  ///   if case .finished(.failure(let error)) = event { print(error) }
  /// }
  /// ```
  public func events() -> OfflineEvents<OfflineContent.Event> {
    let queue = EventQueue<OfflineContent.Event>(
      content: { _ in "" }, isProgress: { if case .progress = $0 { true } else { false } })
    let transfer = self
    let run = Task {
      do throws(Transfer.Error) {
        let outcome = try await transfer.run { event in
          switch event {
          case .progress(let progress): queue.push(.progress(progress))
          case .restarted(let reason): queue.push(.restarted(reason))
          default: break
          }
        }
        let file = URL(fileURLWithPath: outcome.destination)
        queue.push(.finished(.success(file)))
      } catch {
        queue.push(.finished(.failure(OfflineError(.transfer(error)))))
      }
      queue.finish()
    }
    return OfflineEvents(subscription: .init(queue: queue) { run.cancel() })
  }
}
