extension NginxServer {
  /// How the generated nginx configuration differs from the plain static file server.
  public struct Options: Sendable {
    /// Emits `max_ranges N;`; `0` makes nginx ignore `Range` and answer 200 with the full body.
    public var maxRanges: Int?
    /// Emits `limit_rate` with this value, such as `"40m"` (bytes per second, per connection).
    public var limitRate: String?
    /// Serves HTTPS and HTTP/2 with a fresh self-signed certificate for 127.0.0.1 and
    /// `localhost`; see `NginxServer.certificatePath`.
    public var tls: Bool
    /// Raw configuration text inserted into the `server` block, such as
    /// `location = /away { return 302 ftp://x; }`.
    public var extraLocations: String
    /// Emits `etag on;` or `etag off;`.
    public var etag: Bool
    /// The IPv4 address nginx listens on, probed for readiness and used in `baseURL`.
    public var listenAddress: String
    /// A command that runs nginx, such as `["/usr/sbin/ip", "netns", "exec", "okt-1-1"]`;
    /// it must exec nginx in place so the process it starts is nginx. Empty runs nginx directly.
    public var launcher: [String]
    /// Adds the connection serial number, the request's number on that connection, and the
    /// request's end time and duration to each access-log line (`AccessLogEntry.connection`
    /// and the fields after it), to see which requests shared a connection or overlapped.
    public var logsConnections: Bool
    /// Raw configuration text inserted into the `http` block, such as a `map` on
    /// `$http_authorization`.
    public var httpConfiguration: String
    /// Request header fields (such as `Authorization`, `Cookie`) written, with the request
    /// URI, to a second log that `NginxServer.headerLog()` reads; empty writes no such log.
    public var loggedHeaders: [String]

    /// Creates options; the defaults give a plain HTTP/1.1 server with range support.
    public init(
      maxRanges: Int? = nil,
      limitRate: String? = nil,
      tls: Bool = false,
      extraLocations: String = "",
      etag: Bool = true,
      listenAddress: String = "127.0.0.1",
      launcher: [String] = [],
      logsConnections: Bool = false,
      httpConfiguration: String = "",
      loggedHeaders: [String] = []
    ) {
      self.httpConfiguration = httpConfiguration
      self.loggedHeaders = loggedHeaders
      self.maxRanges = maxRanges
      self.limitRate = limitRate
      self.tls = tls
      self.extraLocations = extraLocations
      self.etag = etag
      self.listenAddress = listenAddress
      self.launcher = launcher
      self.logsConnections = logsConnections
    }
  }
}
