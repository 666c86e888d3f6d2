import Dispatch

/// Runs the jobs of the tasks that prefer it on a Dispatch queue of their own instead of the
/// concurrency pool (SE-0417).
///
/// The pool has one thread per core (two here) and the code under test still blocks a thread
/// now and then (a hash or a write-behind being waited for, SQLite's busy wait): an
/// in-process run of `offline` (or a test's own blocking call) on the pool could hold both threads while another test's
/// timer or kill waits for one. Dispatch adds threads to a queue whose threads block, so a
/// run here never starves the pool, and several runs go side by side.
public final class DispatchTaskExecutor: TaskExecutor {
  private let queue: DispatchQueue

  /// An executor whose jobs run on a concurrent Dispatch queue named `label`.
  public init(label: String) {
    queue = DispatchQueue(label: label, attributes: .concurrent)
  }

  /// Runs `job` on the queue.
  public func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    let executor = asUnownedTaskExecutor()
    queue.async { job.runSynchronously(on: executor) }
  }
}
