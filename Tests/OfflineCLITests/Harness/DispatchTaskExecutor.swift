import Dispatch

/// Runs the jobs of the tasks that prefer it on a Dispatch queue of their own instead of the
/// concurrency pool (SE-0417).
///
/// The pool has one thread per core (two here) and the code under test still blocks a thread
/// now and then (a hash or a write-behind being waited for, SQLite's busy wait): an
/// in-process run of `offline` on the pool could hold both threads while another test's
/// timer or kill waits for one. Dispatch adds threads to a queue whose threads block, so a
/// run here never starves the pool, and several runs go side by side.
final class DispatchTaskExecutor: TaskExecutor {
  private let queue: DispatchQueue

  init(label: String) {
    queue = DispatchQueue(label: label, attributes: .concurrent)
  }

  func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    let executor = asUnownedTaskExecutor()
    queue.async { job.runSynchronously(on: executor) }
  }
}
