/// A request as the `FaultServer` received it.
public struct RecordedRequest: Sendable, Equatable {
  /// The request method, such as `GET` or `HEAD`.
  public var method: String
  /// The request target with its query string, such as `/a.bin?x=1`.
  public var path: String
  /// The header fields with lowercased names; repeated fields are joined with `", "`.
  public var headers: [String: String]
  /// The protocol version from the request line, such as `HTTP/1.1`.
  public var version: String

  /// Creates a recorded request.
  public init(method: String, path: String, headers: [String: String], version: String) {
    self.method = method
    self.path = path
    self.headers = headers
    self.version = version
  }

  /// `path` without its query string, as routes are matched.
  public var route: String {
    path.firstIndex(of: "?").map { String(path[..<$0]) } ?? path
  }

  /// Whether the client wants the connection kept open after the response.
  var wantsKeepAlive: Bool {
    let connection = headers["connection"]?.lowercased() ?? ""
    if version == "HTTP/1.0" { return connection.contains("keep-alive") }
    return !connection.contains("close")
  }
}
