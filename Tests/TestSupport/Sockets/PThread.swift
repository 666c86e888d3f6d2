#if canImport(Glibc)
  import Glibc
#endif

/// Joinable POSIX threads running a Swift closure, so a server can wait for its threads.
enum PThread {
  /// Holds the closure while it crosses into the new thread.
  private final class Box {
    let body: @Sendable () -> Void
    init(_ body: @escaping @Sendable () -> Void) { self.body = body }
  }

  /// Starts a thread running `body`; the caller must `join` it exactly once.
  static func start(_ body: @escaping @Sendable () -> Void) throws -> pthread_t {
    let box = Unmanaged.passRetained(Box(body)).toOpaque()
    var thread = pthread_t()
    let result = pthread_create(
      &thread, nil,
      { raw in
        guard let raw else { return nil }
        Unmanaged<Box>.fromOpaque(raw).takeRetainedValue().body()
        return nil
      }, box)
    guard result == 0 else {
      Unmanaged<Box>.fromOpaque(box).release()
      throw TestSupportError.systemCall("pthread_create", errno: result)
    }
    return thread
  }

  /// Waits for `thread` to finish.
  static func join(_ thread: pthread_t) {
    pthread_join(thread, nil)
  }
}
