/// One request as nginx logged it, parsed from `NginxServer.accessLog()`.
///
/// Header fields the client did not send are `nil` (nginx logs them as `-`).
public struct AccessLogEntry: Sendable, Equatable {
  /// The request method, such as `GET`.
  public var method: String
  /// The request target as sent, with its query string.
  public var uri: String
  /// The response status code.
  public var status: Int
  /// Body bytes nginx sent; less than the file size when a client hung up early.
  public var bodyBytesSent: Int64
  /// The `Range` request header.
  public var range: String?
  /// The `If-Range` request header.
  public var ifRange: String?
  /// The `User-Agent` request header.
  public var userAgent: String?
  /// The `Accept-Encoding` request header.
  public var acceptEncoding: String?
  /// The protocol, such as `HTTP/1.1` or `HTTP/2.0`.
  public var `protocol`: String
  /// nginx's serial number of the connection the request came on, when the server was
  /// started with `Options.logsConnections`.
  public var connection: Int?
  /// The request's number on its connection (1 for the first), with `logsConnections`.
  public var connectionRequests: Int?
  /// When nginx finished the request, in seconds since 1970, with `logsConnections`.
  public var finishedAt: Double?
  /// How long the request took from its first byte read to its last byte sent, in seconds,
  /// with `logsConnections`.
  public var duration: Double?

  /// When nginx began the request (``finishedAt`` less ``duration``), with `logsConnections`.
  public var startedAt: Double? {
    guard let finishedAt, let duration else { return nil }
    return finishedAt - duration
  }

  /// Parses one line in the `NginxServer` log format, or returns `nil` if it does not fit.
  init?(line: Substring) {
    let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
    guard fields.count == 9 || fields.count == 13, let status = Int(fields[2]),
      let sent = Int64(fields[3])
    else {
      return nil
    }
    func optional(_ value: String) -> String? { value == "-" ? nil : Self.unescaped(value) }
    method = fields[0]
    uri = Self.unescaped(fields[1])
    self.status = status
    bodyBytesSent = sent
    range = optional(fields[4])
    ifRange = optional(fields[5])
    userAgent = optional(fields[6])
    acceptEncoding = optional(fields[7])
    `protocol` = fields[8]
    if fields.count == 13 {
      connection = Int(fields[9])
      connectionRequests = Int(fields[10])
      finishedAt = Double(fields[11])
      duration = Double(fields[12])
    }
  }

  /// Undoes nginx's `escape=default`, which writes `"`, backslash and control bytes as `\xHH`.
  static func unescaped(_ value: String) -> String {
    guard value.contains("\\x") else { return value }
    let bytes = Array(value.utf8)
    var out: [UInt8] = []
    out.reserveCapacity(bytes.count)
    var index = 0
    while index < bytes.count {
      if bytes[index] == UInt8(ascii: "\\"), index + 3 < bytes.count,
        bytes[index + 1] == UInt8(ascii: "x"),
        let byte = UInt8(String(decoding: bytes[index + 2...index + 3], as: UTF8.self), radix: 16)
      {
        out.append(byte)
        index += 4
      } else {
        out.append(bytes[index])
        index += 1
      }
    }
    return String(decoding: out, as: UTF8.self)
  }
}
