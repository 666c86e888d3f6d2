import Foundation

/// What the service answers: a status, headers and a body.
struct HTTPResponse: Sendable {
  /// Where the body comes from.
  enum Body: Sendable {
    /// Bytes in memory.
    case data(Data)
    /// `length` bytes of an open file from `offset`; the server closes the descriptor.
    case file(descriptor: Int32, offset: Int64, length: Int64)
    /// A body produced as it comes: of unknown length (Server-Sent Events), sent chunked;
    /// or of a known `length` (a file read while it downloads), sent with that length.
    case stream(any HTTPBodyStream, length: Int64? = nil)
  }

  /// The status code.
  var status: Int
  /// The headers, in order.
  var headers: [(String, String)]
  /// The body (for HEAD, the server sends the headers only).
  var body: Body

  /// A response with `body` in memory.
  init(status: Int, headers: [(String, String)] = [], body: Data = Data()) {
    self.status = status
    self.headers = headers
    self.body = .data(body)
  }

  /// A response with any body.
  init(status: Int, headers: [(String, String)], body: Body) {
    self.status = status
    self.headers = headers
    self.body = body
  }

  /// Lets go of a response that will not be sent: closes its file or its stream.
  func discard() {
    switch body {
    case .data: break
    case .file(let descriptor, _, _): close(descriptor)
    case .stream(let stream, _): stream.close()
    }
  }

  /// A plain-text answer, for errors: one sentence a user can act on.
  static func text(_ status: Int, _ message: String, headers: [(String, String)] = [])
    -> HTTPResponse
  {
    HTTPResponse(
      status: status,
      headers: [("Content-Type", "text/plain; charset=utf-8")] + headers,
      body: Data((message + "\n").utf8))
  }

  /// A JSON answer.
  static func json(_ status: Int, _ data: Data) -> HTTPResponse {
    HTTPResponse(
      status: status,
      headers: [("Content-Type", "application/json"), ("Cache-Control", "no-store")],
      body: data)
  }

  /// A redirect to `location` (303 See Other by default).
  static func redirect(to location: String, status: Int = 303, headers: [(String, String)] = [])
    -> HTTPResponse
  {
    HTTPResponse(status: status, headers: [("Location", location)] + headers)
  }
}
