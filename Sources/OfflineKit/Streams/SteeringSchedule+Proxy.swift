import Foundation

extension SteeringSchedule {
  /// The query parameter of a proxy steering request that carries the steering server's
  /// URL (DASH-IF CTS 001, `ContentSteering@proxyServerURL`).
  static let proxyTargetParameter = "url"

  /// The request to the proxy steering server `proxy` for the steering manifest at
  /// `server` (DASH-IF CTS 001: a client with a `proxyServerURL` asks the proxy, the
  /// steering server's URL percent-encoded as the proxy's `url` parameter): `proxy`'s own
  /// query kept, less any `url`, pathway or throughput parameter it had, then `url`, the
  /// pathway parameter set to `pathway` and, when given, the throughput parameter. Every
  /// value is percent-encoded but for RFC 3986's unreserved characters, so a server URL's
  /// own query (`?`, `&`, `=`) stays inside the `url` value. `proxy`'s fragment is dropped.
  static func request(
    to proxy: URL, asking server: URL, pathway: String?, throughput: Int?, names: Names
  ) -> URL {
    guard var components = URLComponents(url: proxy, resolvingAgainstBaseURL: true) else {
      return proxy
    }
    let replaced: Set<String> = [
      proxyTargetParameter, names.pathwayParameter, names.throughputParameter,
    ]
    var fields = (components.percentEncodedQuery ?? "").split(separator: "&").filter { field in
      let name = field.split(separator: "=", maxSplits: 1).first.map(String.init) ?? ""
      return !replaced.contains(name.removingPercentEncoding ?? name)
    }.map(String.init)
    fields.append(proxyTargetParameter + "=" + queryValue(server.absoluteString))
    if let pathway { fields.append(names.pathwayParameter + "=" + queryValue(pathway)) }
    if let throughput { fields.append(names.throughputParameter + "=" + String(throughput)) }
    components.percentEncodedQuery = fields.joined(separator: "&")
    components.fragment = nil
    return components.url ?? proxy
  }

  /// `text` percent-encoded as a query value: everything but RFC 3986 §2.3's unreserved
  /// characters (letters, digits, `-`, `.`, `_`, `~`).
  static func queryValue(_ text: String) -> String {
    text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? ""
  }

  /// RFC 3986 §2.3's unreserved characters.
  private static let unreserved = CharacterSet(
    charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
}
