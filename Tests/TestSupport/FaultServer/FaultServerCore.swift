import Foundation
import OfflineLocks

#if canImport(Glibc)
  import Glibc
#endif

/// The listener, threads and shared state behind a `FaultServer`.
///
/// Threads hold this object, not the `FaultServer`, so releasing the server runs its
/// `deinit`, which stops everything.
final class FaultServerCore: Sendable {
  /// The listening socket.
  let listener: Int32
  /// The port the listener is bound to.
  let port: Int
  /// Everything the threads share.
  let state = Locked(State())

  struct State {
    var routes: [String: FaultServer.Behaviour] = [:]
    /// Requests per route since its `setRoute`, for `.sequence`.
    var hits: [String: Int] = [:]
    /// Cut responses per route since its `setRoute`, for `Faults.cutResponses`.
    var cuts: [String: Int] = [:]
    var requests: [RecordedRequest] = []
    /// Requests to `.overloaded` routes being answered now.
    var overloadedAnswering = 0
    /// Requests `.overloaded` routes refused for want of capacity.
    var overloadRefusals = 0
    /// Open connection sockets; a connection thread closes its socket while holding the
    /// lock, so `stop()` never shuts down a reused descriptor.
    var connections: Set<Int32> = []
    var acceptThread: pthread_t?
    var connectionThreads: [pthread_t] = []
    /// Connection threads that have finished and can be joined.
    var finished: [pthread_t] = []
    var stopping = false
  }

  init() throws {
    listener = try Socket.listening()
    do {
      port = try Socket.localPort(of: listener)
      let thread = try PThread.start { [self] in acceptLoop() }
      state.withLock { $0.acceptThread = thread }
    } catch {
      close(listener)
      throw error
    }
  }

  /// Whether `stop()` has begun.
  var isStopping: Bool { state.withLock { $0.stopping } }

  /// Sleeps up to `seconds` in short slices; returns false early if the server is stopping.
  func pause(_ seconds: Double) -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while true {
      if isStopping { return false }
      let left = deadline.timeIntervalSinceNow
      if left <= 0 { return true }
      usleep(useconds_t(min(left, 0.02) * 1_000_000))
    }
  }

  /// Stops accepting, shuts every connection down and joins all threads. Idempotent.
  func stop() {
    let acceptThread: pthread_t? = state.withLock { state in
      guard !state.stopping else { return nil }
      state.stopping = true
      for fd in state.connections { shutdown(fd, Int32(SHUT_RDWR)) }
      defer { state.acceptThread = nil }
      return state.acceptThread
    }
    guard let acceptThread else { return }
    shutdown(listener, Int32(SHUT_RDWR))
    PThread.join(acceptThread)
    let threads = state.withLock { state in
      defer { state.connectionThreads = [] }
      return state.connectionThreads
    }
    for thread in threads { PThread.join(thread) }
    close(listener)
  }

  private func acceptLoop() {
    while true {
      let fd = accept(listener, nil, nil)
      if fd >= 0 { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
      if fd < 0 {
        if isStopping { return }
        if errno != EINTR && errno != ECONNABORTED { usleep(10_000) }
        continue
      }
      joinFinishedThreads()
      let accepted = state.withLock { state -> Bool in
        guard !state.stopping else { return false }
        guard let thread = try? PThread.start({ [self] in serve(fd) }) else { return false }
        state.connections.insert(fd)
        state.connectionThreads.append(thread)
        return true
      }
      if !accepted { close(fd) }
    }
  }

  private func joinFinishedThreads() {
    let done = state.withLock { state in
      let done = state.finished
      state.finished = []
      state.connectionThreads.removeAll { thread in
        done.contains { pthread_equal($0, thread) != 0 }
      }
      return done
    }
    for thread in done { PThread.join(thread) }
  }

  /// Answers requests on `fd` until the client closes, a fault closes, or the server stops.
  private func serve(_ fd: Int32) {
    Socket.setTimeouts(fd, seconds: 30)
    var reader = RequestReader(fd: fd)
    let connection = Connection(fd: fd, core: self)
    while !isStopping, let request = reader.next() {
      guard connection.respond(to: request) else { break }
    }
    state.withLock { state in
      state.connections.remove(fd)
      close(fd)
      state.finished.append(pthread_self())
    }
  }
}
