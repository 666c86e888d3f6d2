import Foundation
import OfflineLocks

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

extension URLSessionTransport {
  /// Settings for every request of a ``URLSessionTransport``.
  public struct Configuration: Sendable, Equatable {
    /// How long a request may go without receiving one byte (the head included) before it
    /// fails as stalled: URLSession's request timeout, which is an idle timeout.
    public var stallTimeout: Duration
    /// Which redirects are followed.
    public var redirects: RedirectPolicy
    /// A PEM file of CA certificates to trust instead of the system's, for servers with a
    /// private CA. Honoured on Apple platforms (the server-trust challenge is evaluated
    /// against these anchors); FoundationNetworking on Linux never raises that challenge, so
    /// there it has no effect. Verification itself is never switched off.
    public var trustedCAFile: String?
    /// The `User-Agent` sent unless a request sets its own.
    public var userAgent: String
    /// Bytes waiting for a request's delegate at which the transport holds the response
    /// back (see ``URLSessionTransport`` for how, per platform).
    public var highWater: Int

    /// Creates a configuration with the defaults.
    public init(
      stallTimeout: Duration = .seconds(30),
      redirects: RedirectPolicy = RedirectPolicy(),
      trustedCAFile: String? = nil,
      userAgent: String = "OfflineKit/\(OfflineHTTPVersion.string)",
      highWater: Int = 8 << 20
    ) {
      self.stallTimeout = stallTimeout
      self.redirects = redirects
      self.trustedCAFile = trustedCAFile
      self.userAgent = userAgent
      self.highWater = max(64 << 10, highWater)
    }

    /// The stall timeout in seconds, as URLSession takes it.
    var stallSeconds: TimeInterval {
      return max(0.001, stallTimeout.inSeconds)
    }

    /// An ephemeral session that caches nothing and keeps no cookies or credentials.
    var sessionConfiguration: URLSessionConfiguration {
      let session = URLSessionConfiguration.ephemeral
      session.requestCachePolicy = .reloadIgnoringLocalCacheData
      session.urlCache = nil
      session.httpCookieStorage = nil
      session.httpShouldSetCookies = false
      session.urlCredentialStorage = nil
      session.timeoutIntervalForRequest = stallSeconds
      session.timeoutIntervalForResource = 7 * 24 * 3600
      return session
    }
  }
}
