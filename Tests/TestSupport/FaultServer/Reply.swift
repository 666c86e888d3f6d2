import Foundation

/// A response the fault server is about to send, before faults are applied.
struct Reply: Sendable {
  /// The status code.
  var status: Int
  /// Header fields other than `Content-Length` and `Connection`.
  var headers: [(String, String)]
  /// The bytes `range` indexes into (the entity, or a small text body).
  var payload: Data
  /// The slice of `payload` that forms the body.
  var range: Range<Int>
  /// Whether the body is the resource's entity, which is where faults apply.
  var isEntity = false
  /// A `Content-Length` to send instead of `range.count`, when a test asked for one.
  var declaredLength: Int?

  /// A fixed response with `body` as its whole payload.
  static func fixed(_ status: Int, headers: [(String, String)] = [], body: Data) -> Reply {
    Reply(status: status, headers: headers, payload: body, range: 0..<body.count)
  }

  /// A plain-text response such as 404.
  static func text(_ status: Int, _ text: String, headers: [(String, String)] = []) -> Reply {
    fixed(status, headers: [("Content-Type", "text/plain")] + headers, body: Data(text.utf8))
  }

  /// The reply to `.status(code:headers:body:)`; a `Content-Length` in `headers` wins.
  static func status(_ code: Int, headers: [(String, String)], body: Data) -> Reply {
    var reply = fixed(code, body: body)
    for (name, value) in headers {
      if name.lowercased() == "content-length", let length = Int(value) {
        reply.declaredLength = length
      } else {
        reply.headers.append((name, value))
      }
    }
    return reply
  }

  /// The standard reason phrase for `status`.
  static func reason(_ status: Int) -> String {
    let phrases = [
      200: "OK", 204: "No Content", 206: "Partial Content", 301: "Moved Permanently",
      302: "Found", 303: "See Other", 304: "Not Modified", 307: "Temporary Redirect",
      308: "Permanent Redirect", 400: "Bad Request", 401: "Unauthorized", 403: "Forbidden",
      404: "Not Found", 410: "Gone", 412: "Precondition Failed",
      416: "Range Not Satisfiable", 429: "Too Many Requests", 500: "Internal Server Error",
      502: "Bad Gateway", 503: "Service Unavailable", 504: "Gateway Timeout",
    ]
    return phrases[status] ?? "Status \(status)"
  }
}
