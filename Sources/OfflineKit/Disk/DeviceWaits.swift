import Dispatch
import Synchronization

/// Runs file work that waits for the device (a write past the page cache, an `fdatasync`)
/// on threads of its own, never on the few threads Swift concurrency shares between every
/// task of the process.
///
/// On Linux the cooperative pool has one thread per core, and dispatch's global queues run
/// on the same threads. A transfer's last write goes past the page cache (``DirectWriter``)
/// and returns only when the device has the bytes: for a file of 100 KiB that is a wait of
/// a few hundred microseconds in which one of this VM's two threads would do nothing, while
/// seven other transfers of the queue wait for a thread to parse, hash and record.
///
/// The work goes to one of ``laneCount`` serial queues in turn; each is served by a thread
/// outside the pool while it has work. The work always runs to its end: a task cancelled
/// while it waits still gets the result, so a write is never left half-known.
enum DeviceWaits {
  /// How many pieces of work may wait for the device at once; more queue behind them.
  static let laneCount = 8

  private static let lanes = (0..<laneCount).map {
    DispatchQueue(label: "OfflineKit.deviceWaits.\($0)")
  }
  private static let nextLane = Atomic<Int>(0)

  /// Runs `work` on a lane and returns what it returned or throws what it threw.
  static func run<T: Sendable, E: Error>(
    _ work: @escaping @Sendable () throws(E) -> T
  ) async throws(E) -> T {
    let lane = lanes[nextLane.add(1, ordering: .relaxed).oldValue % laneCount]
    let result = await withCheckedContinuation { (done: CheckedContinuation<Result<T, E>, Never>) in
      lane.async {
        do throws(E) {
          done.resume(returning: .success(try work()))
        } catch {
          done.resume(returning: .failure(error))
        }
      }
    }
    return try result.get()
  }
}
