import Foundation

/// One HTTP request as the service sees it: the method, the path exactly as the client sent
/// it (still percent-encoded), the query, the headers and the body.
struct HTTPRequest: Sendable {
  /// The method in upper case (`GET`, `HEAD`, `POST`…).
  var method: String
  /// The path without the query, still percent-encoded, as on the request line.
  var rawPath: String
  /// The query parameters, decoded (`+` is a space).
  var query: [String: String]
  /// The headers, with names in lower case; repeated headers joined with `, `.
  var headers: [String: String]
  /// The body, at most the service's body limit.
  var body: Data

  /// The value of header `name` (any case).
  func header(_ name: String) -> String? { headers[name.lowercased()] }

  /// Whether the request only reads (GET or HEAD): anything else changes state.
  var isSafe: Bool { method == "GET" || method == "HEAD" }

  /// The cookie `name` from the `Cookie` header, if sent.
  func cookie(_ name: String) -> String? {
    guard let header = header("cookie") else { return nil }
    for pair in header.split(separator: ";") {
      let parts = pair.split(separator: "=", maxSplits: 1)
      if parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces) == name {
        return parts[1].trimmingCharacters(in: .whitespaces)
      }
    }
    return nil
  }

  /// The path split at `/`, each segment percent-decoded; nil when a segment cannot be
  /// decoded or decodes to something that is not a plain name (empty, `.`, `..`, or holding
  /// `/`, `\` or NUL), so no encoding of `../` can climb out of a folder.
  var safeSegments: [String]? {
    var result: [String] = []
    let parts = rawPath.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
    for (index, part) in parts.enumerated() {
      if part.isEmpty && index == parts.count - 1 { break }  // a trailing slash, or `/`
      guard let name = String(part).removingPercentEncoding, !name.isEmpty, name != ".",
        name != "..", !name.contains("/"), !name.contains("\\"), !name.contains("\0")
      else { return nil }
      result.append(name)
    }
    return result
  }
}
