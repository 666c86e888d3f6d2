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
  /// What the callbacks reach; also retained for them (``context``) until the daemon stops.
  private let server: ServerContext
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
    self.server = server
    self.context = context
    self.port = Int(offline_mhd_port(started))
  }

  deinit { stop() }

  /// Stops at once: refuses new requests (503), answers every request still being worked
  /// out with 503 and ends every streaming body (their connections resume), then stops the
  /// daemon, which closes every connection and joins its threads. Nothing waits for the
  /// handlers: a task that answers later finds its connection answered and lets its answer
  /// go. (It waited up to 10 s for them and, when one was still working, returned with the
  /// daemon running: the process then exited under its threads.) Calling it again does
  /// nothing.
  func stop() {
    let wasStopped = stopped.withLock { value in
      defer { value = true }
      return value
    }
    guard !wasStopped else { return }
    // Every suspended connection is resumed first: libmicrohttpd panics when it is stopped
    // with one that is not.
    server.stop()
    MHD_stop_daemon(daemon.pointer)
    context.release()
  }

  /// Handlers still working out answers (they end when the manager answers them).
  var answersInProgress: Int { server.inFlight }

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

/// What the C callbacks reach through their `cls` pointer: the handlers, the requests whose
/// answers tasks are working out (their connections suspended), and the streaming bodies
/// being sent, so that ``stop()`` can resume every suspended connection.
final class ServerContext: Sendable {
  let handlers: HTTPServer.Handlers
  let maximumBodyBytes: Int
  private let state = Locked(State())

  private struct State {
    var working: [ObjectIdentifier: (ConnectionRequest, ConnectionHandle)] = [:]
    var streams: [ObjectIdentifier: StreamConnection] = [:]
    var inFlight = 0
    var stopping = false
  }

  init(handlers: HTTPServer.Handlers, maximumBodyBytes: Int) {
    self.handlers = handlers
    self.maximumBodyBytes = maximumBodyBytes
  }

  /// Notes that a task works out the answer to `request`, whose connection is suspended;
  /// false once the server is stopping.
  func begin(_ request: ConnectionRequest, on connection: ConnectionHandle) -> Bool {
    state.withLock { state in
      guard !state.stopping else { return false }
      state.working[ObjectIdentifier(request)] = (request, connection)
      state.inFlight += 1
      return true
    }
  }

  /// The task's answer is ready: the connection resumes with it, unless ``stop()`` answered
  /// it already (then the answer is let go, its file or stream closed).
  func end(_ request: ConnectionRequest, with response: HTTPResponse) {
    let connection = state.withLock { state in
      state.inFlight -= 1
      guard let (_, connection) = state.working.removeValue(forKey: ObjectIdentifier(request))
      else { return ConnectionHandle?.none }
      request.phase = .ready(response)
      connection.resume()  // under the lock: ``stop()`` cannot stop the daemon meanwhile
      return connection
    }
    if connection == nil { response.discard() }
  }

  var inFlight: Int { state.withLock { $0.inFlight } }

  /// Notes a streaming body being sent.
  func attach(_ stream: StreamConnection) {
    let stopping = state.withLock { state in
      if !state.stopping { state.streams[ObjectIdentifier(stream)] = stream }
      return state.stopping
    }
    if stopping { stream.end() }
  }

  /// A streaming body is done (its response freed).
  func detach(_ stream: StreamConnection) {
    _ = state.withLock { $0.streams.removeValue(forKey: ObjectIdentifier(stream)) }
  }

  /// Refuses new requests; answers those being worked out with 503 and ends every streaming
  /// body, resuming their connections.
  func stop() {
    let streams = state.withLock { state in
      state.stopping = true
      for (request, connection) in state.working.values {
        request.phase = .ready(.text(503, "The service is stopping."))
        connection.resume()
      }
      state.working = [:]
      defer { state.streams = [:] }
      return Array(state.streams.values)
    }
    for stream in streams { stream.end() }
  }
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
