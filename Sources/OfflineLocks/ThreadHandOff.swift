import CSystem

/// Marks, for ThreadSanitizer, a hand-off between threads that it cannot see by itself.
///
/// The one such hand-off in OfflineKit: the network thread resumes a continuation when a
/// request ends, and the awaiting task then reads what the response delegate wrote. When the
/// request ends before the task has suspended, the Swift runtime lets the task go on without
/// scheduling a job, so no instrumented synchronization orders the two threads. Call
/// ``release(_:)`` on the thread that hands over, before it does, and ``acquire(_:)`` on the
/// thread that takes over, with the same object. Outside a `--sanitize=thread` build both do
/// nothing.
public enum ThreadHandOff {
  /// Everything this thread did so far happens before the next ``acquire(_:)`` of `object`.
  @inline(__always)
  public static func release(_ object: AnyObject) {
    ok_tsan_release(Unmanaged.passUnretained(object).toOpaque())
  }

  /// What happened before the last ``release(_:)`` of `object` is visible from here on.
  @inline(__always)
  public static func acquire(_ object: AnyObject) {
    ok_tsan_acquire(Unmanaged.passUnretained(object).toOpaque())
  }
}
