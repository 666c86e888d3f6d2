import Dispatch
import Foundation
import OfflineLocks
import OfflineStore
import Synchronization

/// Records, off the network thread, how many bytes of a part file are on stable storage.
///
/// ``requestCheckpoint(upTo:descriptor:)`` asks for `fdatasync` of the part and then a
/// journal update of its durable offset, on a queue of its own, so the network never waits
/// on the disk's flush. A request while one is in flight is dropped (the next one covers it). The offset
/// recorded is always one that was handed to the kernel before the sync began, so it never
/// exceeds the bytes on disk.
final class DurableCheckpointer: Sendable {
  private let queue = DispatchQueue(label: "OfflineKit.checkpoint")
  private let inFlight = Atomic<Bool>(false)
  private let failure = Locked<(any Error & Sendable)?>(nil)
  private let journal: TransferJournal
  private let destination: String
  private let bootID: String?

  init(journal: TransferJournal, destination: String, bootID: String?) {
    self.journal = journal
    self.destination = destination
    self.bootID = bootID
  }

  /// Syncs the file open at `descriptor` and records `offset` in the background, unless a
  /// checkpoint is already running. The descriptor stays open until ``drain()`` returns.
  func requestCheckpoint(upTo offset: Int64, descriptor: Int32) {
    guard inFlight.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged
    else { return }
    queue.async { [self] in
      defer { inFlight.store(false, ordering: .releasing) }
      guard Durability.syncData(descriptor) == 0 else {
        let code = errno
        failure.withLock { $0 = TransferFileError(.sync, errno: code) }
        return
      }
      do {
        try journal.updateProgress(destination: destination, durableOffset: offset, bootID: bootID)
      } catch {
        failure.withLock { $0 = error }
      }
    }
  }

  /// Waits for a checkpoint in flight, then reports the first failure any checkpoint met.
  func drain() -> (any Error & Sendable)? {
    queue.sync {}
    return failure.withLock { $0 }
  }
}
