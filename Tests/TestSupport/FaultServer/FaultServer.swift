import Foundation

/// A small HTTP/1.1 server on 127.0.0.1 for the faults nginx cannot produce on demand.
///
/// Each path gets a `Behaviour`: a resource with correct range semantics and optional
/// faults (cuts, short bodies, stalls, lying `Content-Range`, trickling), a fixed status, a
/// redirect, or a sequence of those. Unknown paths get 404. One thread accepts, one thread
/// serves each connection, and connections are kept alive between requests unless a fault
/// closes them. Every request is recorded.
///
/// ```swift
/// let server = try FaultServer()
/// defer { server.stop() }
/// server.setRoute("/a.bin", .sequence([
///   .status(code: 503),
///   .resource(.init(body: body, faults: .init(cutAfterBodyBytes: 1000))),
/// ]))
/// let url = server.url("/a.bin")
/// ```
public final class FaultServer: Sendable {
  private let core: FaultServerCore

  /// Binds 127.0.0.1 on a free port and starts accepting connections.
  ///
  /// - Throws: `TestSupportError.systemCall` when the socket or thread cannot be created.
  public init() throws {
    core = try FaultServerCore()
  }

  deinit { core.stop() }

  /// The port the server listens on.
  public var port: Int { core.port }

  /// The URL of `path` on this server; `path` should start with `/` and may have a query.
  public func url(_ path: String) -> URL {
    URL(string: "http://127.0.0.1:\(port)" + (path.hasPrefix("/") ? path : "/" + path))!
  }

  /// Sets what requests to `path` get (matched exactly, without the query string).
  ///
  /// Resets the route's request and cut counters, so a new `.sequence` starts over.
  public func setRoute(_ path: String, _ behaviour: Behaviour) {
    core.state.withLock { state in
      state.routes[path] = behaviour
      state.hits[path] = nil
      state.cuts[path] = nil
    }
  }

  /// Every request received so far, in arrival order.
  public var requests: [RecordedRequest] { core.state.withLock { $0.requests } }

  /// How many requests `.overloaded` routes refused so far (answered 503 or 429 because
  /// their capacity was taken).
  public var overloadRefusals: Int { core.state.withLock { $0.overloadRefusals } }

  /// The requests received so far whose path (without query) is `path`.
  public func requests(for path: String) -> [RecordedRequest] {
    requests.filter { $0.route == path }
  }

  /// Stops accepting, closes every connection (ending stalls early) and joins all threads.
  ///
  /// Safe to call more than once; `deinit` calls it too.
  public func stop() {
    core.stop()
  }
}
