import Foundation
import OfflineKit

/// The local service behind `offline serve`: HTTP on libmicrohttpd in front of one
/// ``OfflineManager``, serving the JSON API and its events at `/api/…` (see `docs/API.md`) and
/// downloaded content to players at `/content/<id>/…`, and the aria2 JSON-RPC subset at
/// `/jsonrpc` (``AriaRPC``).
///
/// The service is a client of the manager like any other: it does not work the queue (call
/// the manager's `start()` for that). It listens from `init` until ``stop()``. Every request
/// passes the same checks first: its `Host` must be the listening address or an allowed
/// name, it must show the token when one is set, and one that changes state must be
/// same-origin or carry the token in an `Authorization` header.
///
/// ```swift
/// let manager = try OfflineManager(directory: storeURL)
/// try await manager.start()
/// let service = try OfflineService(manager: manager)
/// print("Serving on", service.url)
/// ```
public final class OfflineService: Sendable {
  /// Where and how the service listens.
  public struct Configuration: Sendable {
    /// The address; other machines can reach anything but a loopback one.
    public var address: ListenAddress
    /// The token every request must show; required for a non-loopback address.
    public var token: String?
    /// Host names (besides the address) the service answers to, such as `media.local`.
    public var allowedNames: [String]
    /// Connections open at once (lowered to what the descriptor limit allows); past it, new
    /// ones wait in the listen backlog.
    public var connectionLimit: Int
    /// Seconds a connection may stay idle before it is closed.
    public var idleTimeout: Int
    /// The largest request body accepted (413 above).
    public var maximumBodyBytes: Int

    /// A configuration; the defaults listen on `127.0.0.1:8380` without a token.
    public init(
      address: ListenAddress = .default, token: String? = nil, allowedNames: [String] = [],
      connectionLimit: Int = 16384, idleTimeout: Int = 30, maximumBodyBytes: Int = 1 << 20
    ) {
      self.address = address
      self.token = token
      self.allowedNames = allowedNames
      self.connectionLimit = connectionLimit
      self.idleTimeout = idleTimeout
      self.maximumBodyBytes = maximumBodyBytes
    }
  }

  /// The manager the service drives.
  public let manager: OfflineManager
  /// The configuration, with the port actually bound.
  public let configuration: Configuration
  private let server: HTTPServer
  private let events: EventBroadcaster

  /// Starts listening.
  ///
  /// - Throws: ``OfflineServiceError`` `tokenRequired` for a non-loopback address without a
  ///   token, `invalidToken`, or `cannotListen`.
  public init(manager: OfflineManager, configuration: Configuration = Configuration())
    throws(OfflineServiceError)
  {
    if let token = configuration.token, !ServiceToken.isValid(token) {
      throw OfflineServiceError(.invalidToken)
    }
    guard configuration.address.isLoopback || configuration.token != nil else {
      throw OfflineServiceError(.tokenRequired(configuration.address.description))
    }
    let events = EventBroadcaster(manager: manager)
    let router = Router(manager: manager, events: events, token: configuration.token)
    let settings = HTTPServer.Configuration(
      address: configuration.address, connectionLimit: configuration.connectionLimit,
      idleTimeout: configuration.idleTimeout, maximumBodyBytes: configuration.maximumBodyBytes)
    let guardHolder = GuardHolder()
    server = try HTTPServer(
      configuration: settings,
      handlers: HTTPServer.Handlers(
        admit: { request in
          guard let check = guardHolder.current else {
            return .text(503, "The service is starting; try again.")
          }
          return check.check(request)
        },
        respond: { request in await router.respond(to: request) }))
    var bound = configuration
    bound.address.port = server.port
    guardHolder.set(
      RequestGuard(
        address: bound.address, token: bound.token, names: bound.allowedNames,
        selfAuthenticatingPaths: ["/jsonrpc"]))
    self.configuration = bound
    self.manager = manager
    self.events = events
    events.start()
  }

  /// The service's base URL, `http://ADDRESS:PORT/`.
  public var url: URL { URL(string: "http://\(configuration.address.description)/")! }

  /// The URL to open once in a browser: with the token, when there is one, so the page
  /// sets its cookie.
  public var browserURL: URL {
    guard let token = configuration.token else { return url }
    return URL(string: url.absoluteString + "?token=\(token)")!
  }

  /// Stops serving, at once: refuses new requests, ends the event streams, answers the
  /// requests still being worked out with 503, stops listening and closes every connection.
  /// It waits neither for the manager nor for slow clients. Calling it again does nothing.
  ///
  /// To shut down, an application calls the manager's `stopLaunching()` first, then this,
  /// then `stop(suspendingRunning:)` on the manager, then ``waitForAnswers(until:)``.
  public func stop() {
    events.finish()
    server.stop()
  }

  /// Waits until no task is working out an answer any more (after ``stop()``, those still
  /// waiting for the manager: their answers are let go), or until `deadline`.
  ///
  /// - Returns: Whether none is left.
  public func waitForAnswers(until deadline: ContinuousClock.Instant) async -> Bool {
    while server.answersInProgress > 0 {
      guard ContinuousClock.now < deadline else { return false }
      try? await Task.sleep(for: .milliseconds(5))
    }
    return true
  }
}
