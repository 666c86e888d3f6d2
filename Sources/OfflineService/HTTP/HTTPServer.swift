import CMicroHTTPD
import Foundation
import OfflineLocks

/// An HTTP/1.1 server on libmicrohttpd: a small pool of epoll threads (so thousands of idle
/// connections cost little), keep-alive, HEAD, chunked streaming bodies, and limits on
/// connections, idle time, header memory and request bodies.
///
/// The server owns its `MHD_Daemon` and stops it in ``stop()`` (or `deinit`). The pool's
/// threads never wait: ``Handlers/admit`` runs on them once the headers are in (before any
/// body byte is read, so a refused request costs nothing); ``Handlers/respond`` runs as a
/// task while the connection is suspended, and the connection resumes with its answer.
final class HTTPServer: Sendable {
  /// The limits and the address.
  struct Configuration: Sendable {
    /// Where to listen.
    var address: ListenAddress
    /// Connections open at once (lowered to what the process's descriptor limit allows).
    var connectionLimit: Int = 16384
    /// Seconds a connection may stay idle (no request, no bytes) before it is closed.
    var idleTimeout: Int = 30
    /// The largest request body; a larger one is refused (413) without being read.
    var maximumBodyBytes: Int = 1 << 20
    /// Memory per connection for the request line and headers.
    var headerMemory: Int = 16 << 10
    /// Threads serving connections.
    var threads: Int = 2
  }

  /// What the server calls.
  struct Handlers: Sendable {
    /// Looks at a request's line and headers (the body is empty), on a pool thread: a
    /// response refuses it. Must not wait.
    var admit: @Sendable (HTTPRequest) -> HTTPResponse?
    /// Answers an admitted request whose body is in, as a task.
    var respond: @Sendable (HTTPRequest) async -> HTTPResponse
  }

  /// The port listened on (the chosen one when the address asked for port 0).
  let port: Int
  private let daemon: Daemon
  private let context: Unmanaged<ServerContext>
  private let stopped = Locked(false)

  /// Binds and starts serving.
  ///
  /// - Throws: ``OfflineServiceError`` `cannotListen` when the address cannot be bound.
  init(configuration: Configuration, handlers: Handlers) throws(OfflineServiceError) {
    let server = ServerContext(
      handlers: handlers, maximumBodyBytes: configuration.maximumBodyBytes)
    let context = Unmanaged.passRetained(server)
    var flags = MHD_USE_EPOLL_INTERNAL_THREAD.rawValue | MHD_ALLOW_SUSPEND_RESUME.rawValue
    if configuration.address.isIPv6 { flags |= MHD_USE_IPv6.rawValue }
    let limit = min(configuration.connectionLimit, Self.descriptorsAvailable())
    let started = configuration.address.withSocketAddress { address in
      offline_mhd_start(
        flags, address, ServerCallbacks.access, context.toOpaque(), ServerCallbacks.completed,
        UInt32(max(1, limit)), UInt32(configuration.idleTimeout), configuration.headerMemory,
        UInt32(max(1, configuration.threads)), ServerCallbacks.keepEscaped)
    }
    guard let started else {
      context.release()
      throw OfflineServiceError(.cannotListen(configuration.address.description))
    }
    self.daemon = Daemon(pointer: started)
    self.context = context
    self.port = Int(offline_mhd_port(started))
  }

  deinit { stop() }

  /// Refuses new requests (503), waits (at most `patience`) for answers in progress, then
  /// stops the daemon and closes every connection. Streaming bodies must have ended first
  /// (their stream said `.end`). Calling it again does nothing.
  func stop(patience: Duration = .seconds(10)) {
    let wasStopped = stopped.withLock { value in
      defer { value = true }
      return value
    }
    guard !wasStopped else { return }
    let server = context.takeUnretainedValue()
    server.beginStopping()
    let deadline = ContinuousClock.now + patience
    while server.inFlight > 0 && ContinuousClock.now < deadline { usleep(5_000) }
    guard server.inFlight == 0 else { return }  // a suspended connection: stopping would crash
    MHD_stop_daemon(daemon.pointer)
    context.release()
  }

  /// Connections the descriptor limit leaves room for, keeping some for files and the index.
  private static func descriptorsAvailable() -> Int {
    var limit = rlimit()
    guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 1000 }
    return max(16, Int(min(limit.rlim_cur, 1 << 20)) - 128)
  }
}

/// The `MHD_Daemon` handle.
///
/// `@unchecked Sendable`: the pointer is written once, in `init`; libmicrohttpd's own
/// threads use the daemon, and ours only pass it to `MHD_stop_daemon`, once.
private struct Daemon: @unchecked Sendable {
  let pointer: OpaquePointer
}

/// What the C callbacks reach through their `cls` pointer: the handlers, and the count of
/// answers being worked out while their connection is suspended.
final class ServerContext: Sendable {
  let handlers: HTTPServer.Handlers
  let maximumBodyBytes: Int
  private let state = Locked(State())

  private struct State {
    var inFlight = 0
    var stopping = false
  }

  init(handlers: HTTPServer.Handlers, maximumBodyBytes: Int) {
    self.handlers = handlers
    self.maximumBodyBytes = maximumBodyBytes
  }

  /// Counts one more answer in progress; false once the server is stopping.
  func begin() -> Bool {
    state.withLock { state in
      guard !state.stopping else { return false }
      state.inFlight += 1
      return true
    }
  }

  /// One answer is done (its connection resumed).
  func end() { state.withLock { $0.inFlight -= 1 } }

  var inFlight: Int { state.withLock { $0.inFlight } }

  func beginStopping() { state.withLock { $0.stopping = true } }
}

/// A connection handle carried by the task that answers it.
///
/// `@unchecked Sendable`: the connection is suspended while the task runs, so libmicrohttpd
/// neither frees it nor touches it; the task only passes it to `MHD_resume_connection`,
/// which may be called from any thread.
struct ConnectionHandle: @unchecked Sendable {
  let pointer: OpaquePointer

  func resume() { MHD_resume_connection(pointer) }
  func suspend() { MHD_suspend_connection(pointer) }
}
