import Foundation

/// Why an HTTP request produced no complete response.
///
/// The description is a sentence a user can act on. URLs in it are redacted: user
/// information and query strings, which often carry tokens, are never shown.
public struct HTTPError: Error, Sendable, CustomStringConvertible {
  /// The kind of failure, with its details: the package's own; apps read ``code``.
  package enum Kind: Sendable, Equatable {
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
  package var kind: Kind
  /// The URL being requested when it failed.
  public var url: URL
  /// The libcurl result code, when libcurl reported the failure.
  public var curlCode: Int?
  /// libcurl's own message, when it gave one.
  public var detail: String?
  /// The delegate's error for ``Code-swift.struct/delegateFailed``.
  public var underlying: (any Error & Sendable)?

  /// Creates an error of `code`, as a transport of an app's own throws it. The `detail` of
  /// ``Code-swift.struct/unsupportedScheme``, ``Code-swift.struct/redirectRefused`` and
  /// ``Code-swift.struct/invalidProxy`` names the scheme, the target or the problem.
  public init(
    code: Code, url: URL, curlCode: Int? = nil, detail: String? = nil,
    underlying: (any Error & Sendable)? = nil
  ) {
    let kind: Kind =
      switch code {
      case .unsupportedScheme: .unsupportedScheme(detail ?? url.scheme ?? "")
      case .cannotResolveHost: .cannotResolveHost
      case .cannotConnect: .cannotConnect
      case .connectionLost: .connectionLost
      case .stalled: .stalled
      case .tlsFailure: .tlsFailure
      case .redirectRefused: .redirectRefused(to: detail ?? "")
      case .tooManyRedirects: .tooManyRedirects(Int(detail ?? "") ?? 0)
      case .protocolViolation: .protocolViolation
      case .notHTTP: .notHTTP
      case .headersTooLarge: .headersTooLarge
      case .invalidProxy: .invalidProxy(detail ?? "")
      case .delegateFailed: .delegateFailed
      case .canceled: .canceled
      default: .other
      }
    self.init(kind, url: url, curlCode: curlCode, detail: detail, underlying: underlying)
  }

  /// Creates an error of `kind`.
  package init(
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

extension HTTPError {
  /// Why a request failed, as a stable code to branch on: ``HTTPError/code``. Codes are
  /// values, so a release can add one without breaking a `switch` that has a `default`.
  public struct Code: Hashable, Sendable, CustomStringConvertible {
    /// The code's name, such as `cannotConnect`.
    public let name: String

    private init(_ name: String) { self.name = name }

    /// The code's name.
    public var description: String { name }

    /// The URL's scheme is not http or https.
    public static let unsupportedScheme = Code("unsupportedScheme")
    /// The host name could not be resolved.
    public static let cannotResolveHost = Code("cannotResolveHost")
    /// No connection could be made (refused, unreachable, or the connect timeout passed).
    public static let cannotConnect = Code("cannotConnect")
    /// The connection closed before the whole body arrived.
    public static let connectionLost = Code("connectionLost")
    /// No byte arrived for longer than the stall timeout.
    public static let stalled = Code("stalled")
    /// The server's TLS certificate did not verify, or the TLS handshake failed.
    public static let tlsFailure = Code("tlsFailure")
    /// A redirect pointed somewhere the policy does not follow.
    public static let redirectRefused = Code("redirectRefused")
    /// More redirects than the policy allows.
    public static let tooManyRedirects = Code("tooManyRedirects")
    /// The response could not be parsed as HTTP.
    public static let protocolViolation = Code("protocolViolation")
    /// The server did not answer with HTTP.
    public static let notHTTP = Code("notHTTP")
    /// The response head was too large to take.
    public static let headersTooLarge = Code("headersTooLarge")
    /// The proxy setting that applies to the URL is not a proxy URL.
    public static let invalidProxy = Code("invalidProxy")
    /// The delegate threw from a body callback (``HTTPError/underlying``).
    public static let delegateFailed = Code("delegateFailed")
    /// The calling task was canceled.
    public static let canceled = Code("canceled")
    /// Any other failure.
    public static let other = Code("other")
  }

  /// Why the request failed.
  public var code: Code {
    switch kind {
    case .unsupportedScheme: .unsupportedScheme
    case .cannotResolveHost: .cannotResolveHost
    case .cannotConnect: .cannotConnect
    case .connectionLost: .connectionLost
    case .stalled: .stalled
    case .tlsFailure: .tlsFailure
    case .redirectRefused: .redirectRefused
    case .tooManyRedirects: .tooManyRedirects
    case .protocolViolation: .protocolViolation
    case .notHTTP: .notHTTP
    case .headersTooLarge: .headersTooLarge
    case .invalidProxy: .invalidProxy
    case .delegateFailed: .delegateFailed
    case .canceled: .canceled
    case .other: .other
    }
  }
}
