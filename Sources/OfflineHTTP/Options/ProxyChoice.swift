import Foundation

/// Which proxy, if any, each request goes through, decided as curl decides it.
///
/// | setting | applies to |
/// |---|---|
/// | ``proxy`` (curl's `--proxy`) | every URL, instead of the variables below |
/// | `http_proxy` | http URLs; uppercase `HTTP_PROXY` is ignored, as curl ignores it |
/// | `https_proxy`, else `HTTPS_PROXY` | https URLs |
/// | `all_proxy`, else `ALL_PROXY` | URLs whose scheme's variable is not set |
/// | ``noProxy`` (`--noproxy`), else `no_proxy`, else `NO_PROXY` | hosts reached directly, whichever proxy was chosen |
///
/// A variable set to an empty value means "no proxy" and ends the lookup. A proxy without a
/// scheme is an HTTP one. The decision is made for every URL a request visits, redirects
/// included.
///
/// ```swift
/// let choice = ProxyChoice(environment: .process)
/// let proxy = try choice.proxy(for: url)  // nil: connect directly
/// ```
public struct ProxyChoice: Sendable, Equatable {
  /// The proxy for every request, instead of the environment's; nil follows the environment.
  public var proxy: Proxy?
  /// The hosts reached directly, instead of `no_proxy`; nil follows the environment.
  public var noProxy: NoProxyList?
  /// The variables read when ``proxy`` or ``noProxy`` is nil.
  public var environment: CurlEnvironment

  /// Creates a choice; by default only the environment decides.
  public init(proxy: Proxy? = nil, noProxy: NoProxyList? = nil, environment: CurlEnvironment) {
    self.proxy = proxy
    self.noProxy = noProxy
    self.environment = environment
  }

  /// The proxy for a request to `url`, or nil to connect directly.
  ///
  /// - Throws: ``RequestOptionError`` naming the variable when the one that applies is not a
  ///   proxy URL (an unknown scheme, no host); its password is never repeated.
  public func proxy(for url: URL) throws(RequestOptionError) -> Proxy? {
    let bypass =
      noProxy
      ?? environment.first(of: ["no_proxy", "NO_PROXY"]).map {
        NoProxyList(parsing: $0.value)
      }
    if let bypass, let host = url.host(percentEncoded: false), bypass.contains(host: host) {
      return nil
    }
    if let proxy { return proxy }
    let scheme = url.scheme?.lowercased() ?? ""
    let own =
      scheme == "http" ? ["http_proxy"] : ["\(scheme)_proxy", "\(scheme.uppercased())_PROXY"]
    guard
      let (name, value) = environment.first(of: own)
        ?? environment.first(of: ["all_proxy", "ALL_PROXY"]),
      !value.isEmpty
    else { return nil }
    return try Self.parse(value, variable: name)
  }

  /// Checks every proxy variable that is set, so a bad one is reported before anything is
  /// fetched, even one only a redirect would use.
  ///
  /// - Throws: ``RequestOptionError`` naming the first bad variable.
  public func validate() throws(RequestOptionError) {
    guard proxy == nil else { return }
    for name in ["http_proxy", "https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"] {
      if let value = environment[name], !value.isEmpty { _ = try Self.parse(value, variable: name) }
    }
  }

  private static func parse(_ value: String, variable: String) throws(RequestOptionError) -> Proxy {
    do {
      return try Proxy(parsing: value)
    } catch {
      throw RequestOptionError(option: variable, message: error.message)
    }
  }
}
