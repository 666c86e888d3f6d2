import Synchronization

/// A value that one thread at a time may read or change: a `Mutex` that ThreadSanitizer
/// understands.
///
/// Use it wherever state is shared between threads that are not actors (libcurl callbacks,
/// worker threads, synchronous callers). It behaves exactly like `Synchronization.Mutex`; the
/// difference shows only in a `--sanitize=thread` build, where each critical section is
/// annotated as an acquire and a release of this lock, so the sanitizer sees the hand-off that
/// a contended `Mutex` makes inside the kernel and does not report the guarded state as racing.
///
/// ```swift
/// let counter = Locked(0)
/// let next = counter.withLock { value in
///   value += 1
///   return value
/// }
/// ```
///
/// Never `await` or call into user code inside `body`: the lock is held for its whole run.
public final class Locked<Value: ~Copyable>: Sendable {
  private let mutex: Mutex<Value>

  /// Creates the lock around `initialValue`.
  public init(_ initialValue: consuming sending Value) {
    mutex = Mutex(initialValue)
  }

  /// Runs `body` with the lock held and the value lent to it for changes, and returns what
  /// `body` returns. Blocks while another thread holds the lock.
  public func withLock<Result: ~Copyable, E: Error>(
    _ body: (inout sending Value) throws(E) -> sending Result
  ) throws(E) -> sending Result {
    try mutex.withLock { (value: inout sending Value) throws(E) -> sending Result in
      ThreadHandOff.acquire(self)
      defer { ThreadHandOff.release(self) }
      return try body(&value)
    }
  }
}
