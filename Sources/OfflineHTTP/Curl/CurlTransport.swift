// libcurl is linked on Linux only (Package.swift).
#if canImport(CCurl)
  import CCurl
  import Foundation
  import OfflineLocks

  /// An ``HTTPTransporting`` on libcurl: one multi handle driven by one thread of its own.
  ///
  /// Every request of one transport shares that thread and libcurl's connection cache, so
  /// connections are reused and, over TLS to servers that offer it, requests to one host are
  /// multiplexed on one HTTP/2 connection. Bodies are handed to each request's delegate on a
  /// queue of that request's own as they arrive, so a slow delegate holds back only its own
  /// transfer; see ``HTTPResponseDelegate`` for the backpressure this gives.
  ///
  /// ```swift
  /// let transport = CurlTransport()
  /// let head = try await transport.perform(HTTPRequest(url: url), delegate: sink)
  /// ```
  ///
  /// Cancelling the task that awaits ``perform(_:delegate:)`` stops that transfer at once.
  public final class CurlTransport: HTTPTransporting {
    /// Settings for every request of a transport.
    public struct Configuration: Sendable, Equatable {
      /// How long to wait for a connection (TCP and TLS) before giving up.
      public var connectTimeout: Duration
      /// How long a transfer may go without receiving one byte before it fails as stalled.
      public var stallTimeout: Duration
      /// Which redirects are followed.
      public var redirects: RedirectPolicy
      /// A PEM file of CA certificates to trust instead of the system's (like curl's
      /// `--cacert`), for servers with a private CA; it comes before the environment's
      /// `CURL_CA_BUNDLE`, `SSL_CERT_FILE` and `SSL_CERT_DIR` (see ``TrustedCAs``).
      /// Verification itself is never switched off.
      public var trustedCAFile: String?
      /// The proxy for every request instead of the environment's (curl's `--proxy`); nil
      /// follows the environment (see ``ProxyChoice``).
      public var proxy: Proxy?
      /// Hosts reached without a proxy instead of the environment's `no_proxy` (curl's
      /// `--noproxy`); nil follows the environment.
      public var noProxy: NoProxyList?
      /// The variables read for proxies and CAs when the settings above leave them open; by
      /// default this process's, read when the configuration is made. libcurl never reads the
      /// environment itself: what is used is decided here.
      public var environment: CurlEnvironment
      /// libcurl's receive buffer. 512 KiB measured about twice as fast as the 16 KiB default.
      public var receiveBufferSize: Int
      /// The `User-Agent` sent unless a request sets its own.
      public var userAgent: String
      /// Whether HTTP/2 is offered to https servers (it is never used over plain http).
      public var allowsHTTP2: Bool

      /// Creates a configuration with the defaults.
      public init(
        connectTimeout: Duration = .seconds(15),
        stallTimeout: Duration = .seconds(30),
        redirects: RedirectPolicy = RedirectPolicy(),
        trustedCAFile: String? = nil,
        proxy: Proxy? = nil,
        noProxy: NoProxyList? = nil,
        environment: CurlEnvironment = .process,
        receiveBufferSize: Int = 512 * 1024,
        userAgent: String = "OfflineKit/\(OfflineHTTPVersion.string)",
        allowsHTTP2: Bool = true
      ) {
        self.connectTimeout = connectTimeout
        self.stallTimeout = stallTimeout
        self.redirects = redirects
        self.trustedCAFile = trustedCAFile
        self.proxy = proxy
        self.noProxy = noProxy
        self.environment = environment
        self.receiveBufferSize = receiveBufferSize
        self.userAgent = userAgent
        self.allowsHTTP2 = allowsHTTP2
      }

      /// How each request's proxy is chosen: ``proxy`` and ``noProxy``, then ``environment``.
      public var proxyChoice: ProxyChoice {
        ProxyChoice(proxy: proxy, noProxy: noProxy, environment: environment)
      }

      /// The CAs every TLS connection is verified against: ``trustedCAFile``, then
      /// ``environment``, then the system's.
      public var trustedCAs: TrustedCAs {
        TrustedCAs(caFile: trustedCAFile, environment: environment)
      }

      /// Checks the proxy and CA settings before anything is fetched: every proxy variable
      /// that is set must be a proxy URL, and the CA file or folder chosen must be readable.
      ///
      /// - Throws: ``RequestOptionError`` naming the option or variable (and the path, never
      ///   a password).
      public func validate() throws(RequestOptionError) {
        try proxyChoice.validate()
        try trustedCAs.validate()
      }
    }

    /// The settings every request of this transport uses.
    public let configuration: Configuration
    private let loop: CurlMultiLoop

    /// Creates a transport and starts its network thread.
    public init(configuration: Configuration = Configuration()) {
      self.configuration = configuration
      self.loop = CurlMultiLoop(configuration: configuration)
    }

    deinit {
      loop.shutdown()
    }

    /// Carries out `request`; see ``HTTPTransporting/perform(_:delegate:)``.
    public func perform(_ request: HTTPRequest, delegate: any HTTPResponseDelegate)
      async throws(HTTPError) -> HTTPResponseHead
    {
      try request.requireHTTPScheme()
      let call = CurlCall(
        request: request, delegate: delegate, configuration: configuration
      ) { [loop] id in loop.wake(id) }
      try call.chooseProxy()
      let result = await withTaskCancellationHandler {
        await withCheckedContinuation { continuation in
          call.continuation = continuation
          loop.submit(call)
        }
      } onCancel: {
        loop.cancel(call)
      }
      ThreadHandOff.acquire(call)  // what the delegate wrote on the network thread
      return try result.get()
    }
  }
#endif

/// The version of OfflineKit's HTTP layer, sent in the `User-Agent`.
public enum OfflineHTTPVersion {
  /// The version string, for example "0.1.0".
  public static let string = "0.1.0"
}
