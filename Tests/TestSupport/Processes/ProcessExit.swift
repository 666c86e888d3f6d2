import Foundation
import OfflineLocks

#if canImport(Glibc)
  import Glibc
#endif

/// The end of a child process, awaited without blocking a thread.
///
/// Swift's concurrency pool has as many threads as cores (two on the test machines); a test
/// that blocks one of them in `waitUntilExit()` or on a semaphore while the child talks to a
/// service of this process can starve that service and deadlock the run. Create this before
/// `Process.run()` (it installs the process's `terminationHandler`), then `await` the exit:
/// the waiting task is resumed from the termination handler, or by a timer when the time
/// limit passes first.
///
/// ```swift
/// let process = Process()
/// let exit = ProcessExit(process)
/// try process.run()
/// if await !exit.wait(timeout: 10) { kill(process.processIdentifier, SIGKILL) }
/// ```
public final class ProcessExit: Sendable {
  private struct State {
    var exited = false
    /// The task waiting now, with the number of its wait so a late timer leaves a later
    /// wait alone.
    var waiter: (number: Int, continuation: CheckedContinuation<Bool, Never>)?
    var waits = 0
  }

  private let state = Locked(State())

  /// Watches `process`; call before `process.run()`, and set no other termination handler.
  public init(_ process: Process) {
    process.terminationHandler = { [self] _ in finish() }
  }

  /// Whether the process has ended.
  public var hasExited: Bool { state.withLock { $0.exited } }

  /// Waits until the process ends, at most `timeout` seconds, without blocking a thread.
  ///
  /// One wait at a time. Cancelling the calling task does not end the wait early: the time
  /// limit bounds it.
  ///
  /// - Returns: `true` when the process ended, `false` when the time limit passed first.
  public func wait(timeout: Double) async -> Bool {
    await withCheckedContinuation { continuation in
      let number: Int? = state.withLock { state in
        if state.exited { return nil }
        precondition(state.waiter == nil, "ProcessExit allows one wait at a time")
        state.waits += 1
        state.waiter = (state.waits, continuation)
        return state.waits
      }
      guard let number else { return continuation.resume(returning: true) }
      DispatchQueue.global().asyncAfter(deadline: .now() + max(0, timeout)) { [self] in
        expire(number)
      }
    }
  }

  /// Blocks the calling thread until the process ends, at most `timeout` seconds.
  ///
  /// Only for a child that depends on nothing in this process (openssl, ip) and for callers
  /// that cannot suspend (an initializer, `deinit`, a `static let`).
  ///
  /// - Returns: `true` when the process ended, `false` when the time limit passed first.
  public func blockingWait(timeout: Double) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while !hasExited {
      if Date() >= deadline { return false }
      usleep(2_000)
    }
    return true
  }

  private func finish() {
    let waiter = state.withLock { state in
      state.exited = true
      defer { state.waiter = nil }
      return state.waiter
    }
    waiter?.continuation.resume(returning: true)
  }

  private func expire(_ number: Int) {
    let waiter = state.withLock { state -> CheckedContinuation<Bool, Never>? in
      guard let waiter = state.waiter, waiter.number == number else { return nil }
      state.waiter = nil
      return waiter.continuation
    }
    waiter?.resume(returning: false)
  }
}
