import Foundation

/// Why an HTTP request produced no complete response.
///
/// The description is a sentence a user can act on. URLs in it are redacted: user
/// information and query strings, which often carry tokens, are never shown.
public struct HTTPError: Error, Sendable, CustomStringConvertible {
  /// The kind of failure, for callers that decide what to do next.
  public enum Kind: Sendable, Equatable {
    /// The URL's scheme is not http or https.
    case unsupportedScheme(String)
    /// The host name could not be resolved.
    case cannotResolveHost
    /// No connection could be made (refused, unreachable, or the connect timeout passed).
    case cannotConnect
    /// The connection closed before the whole body arrived (including a body shorter than
    /// its `Content-Length`).
    case connectionLost
    /// No byte arrived for longer than the stall timeout.
    case stalled
    /// The server's TLS certificate did not verify, or the TLS handshake failed.
    case tlsFailure
    /// A redirect pointed somewhere the policy does not follow (another scheme, or https to
    /// http).
    case redirectRefused(to: String)
    /// More redirects than the policy allows (a loop, for example).
    case tooManyRedirects(Int)
    /// The response could not be parsed as HTTP.
    case protocolViolation
    /// The server did not answer with HTTP: no status line (another protocol, garbage, or
    /// bytes left over on a reused connection). Worth another try.
    case notHTTP
    /// The response head was too large to take (more than 256 KiB of header lines, or one
    /// line over libcurl's limit). The transport has already tried once more, on a fresh
    /// connection, so trying again is not worth it.
    case headersTooLarge
    /// The proxy setting that applies to the URL (`--proxy`, or a variable such as
    /// `https_proxy`) is not a proxy URL; the text says which setting and why, without its
    /// password. Trying again will not help.
    case invalidProxy(String)
    /// The delegate threw from a body callback; the error is in ``underlying``.
    case delegateFailed
    /// The calling task was canceled.
    case canceled
    /// Any other libcurl failure.
    case other
  }

  /// The kind of failure.
  public var kind: Kind
  /// The URL being requested when it failed.
  public var url: URL
  /// The libcurl result code, when libcurl reported the failure.
  public var curlCode: Int?
  /// libcurl's own message, when it gave one.
  public var detail: String?
  /// The delegate's error for ``Kind-swift.enum/delegateFailed``.
  public var underlying: (any Error & Sendable)?

  /// Creates an error.
  public init(
    _ kind: Kind, url: URL, curlCode: Int? = nil, detail: String? = nil,
    underlying: (any Error & Sendable)? = nil
  ) {
    self.kind = kind
    self.url = url
    self.curlCode = curlCode
    self.detail = detail
    self.underlying = underlying
  }

  /// Whether trying again later may succeed (connection trouble, stalls), as opposed to a
  /// failure that will repeat (a refused redirect, a certificate that does not verify).
  public var isTransient: Bool {
    switch kind {
    case .cannotResolveHost, .cannotConnect, .connectionLost, .stalled, .notHTTP, .other: true
    default: false
    }
  }

  /// A sentence a user can act on.
  public var description: String {
    let where_ = url.redactedForDisplay
    let suffix = detail.map { " (\($0))" } ?? ""
    switch kind {
    case .unsupportedScheme(let scheme):
      return "Only http and https URLs can be downloaded, not \(scheme): \(where_)."
    case .cannotResolveHost:
      return "Could not resolve the host of \(where_)\(suffix); check the name and the network."
    case .cannotConnect:
      return "Could not connect to \(where_)\(suffix); is the server up and reachable?"
    case .connectionLost:
      return "The connection to \(where_) closed before the whole body arrived\(suffix)."
    case .stalled:
      return "No data arrived from \(where_) for too long\(suffix)."
    case .tlsFailure:
      return "The TLS connection to \(where_) could not be verified\(suffix)."
        + " Pass the server's CA file if it is a private CA."
    case .redirectRefused(let target):
      return "Refused to follow a redirect from \(where_) to \(target):"
        + " only http and https are followed, and never from https to http."
    case .tooManyRedirects(let count):
      return "Stopped after \(count) redirects from \(where_); the server may be in a loop."
    case .protocolViolation:
      return "The response from \(where_) is not valid HTTP\(suffix)."
    case .notHTTP:
      return "The server at \(where_) did not answer with HTTP\(suffix)."
    case .headersTooLarge:
      return "The server at \(where_) sent response headers too large to take\(suffix),"
        + " on a fresh connection too; gave up."
    case .invalidProxy(let problem):
      return "Cannot reach \(where_) through a proxy: \(problem)"
    case .delegateFailed:
      let inner = underlying.map { "\($0)" } ?? "unknown error"
      return "Writing the body from \(where_) failed: \(inner)"
    case .canceled:
      return "The request to \(where_) was canceled."
    case .other:
      return "The request to \(where_) failed\(suffix)."
    }
  }
}
