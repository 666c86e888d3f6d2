import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Reads HTTP/1.1 requests, one after another, from a connected socket.
///
/// Request bodies (sized by `Content-Length`) are read and discarded; chunked request bodies
/// are not supported and end the connection.
struct RequestReader {
  /// The longest header block accepted.
  static let maximumHeaderBytes = 64 << 10

  private let fd: Int32
  private var buffer: [UInt8] = []

  init(fd: Int32) { self.fd = fd }

  /// The next request, or `nil` when the peer closed, the socket failed or timed out, or the
  /// request could not be parsed.
  mutating func next() -> RecordedRequest? {
    var searchFrom = 0
    while true {
      if let end = headerEnd(from: searchFrom) {
        let head = String(decoding: buffer[..<end], as: UTF8.self)
        buffer.removeFirst(end + 4)
        guard let request = Self.parse(head), discardBody(of: request) else { return nil }
        return request
      }
      guard buffer.count <= Self.maximumHeaderBytes, receive() else { return nil }
      searchFrom = max(0, buffer.count - 4096 - 3)
    }
  }

  /// The index of the `\r\n\r\n` that ends the header block, if it has arrived.
  private func headerEnd(from start: Int) -> Int? {
    guard buffer.count >= 4 else { return nil }
    var index = min(start, buffer.count - 4)
    while index <= buffer.count - 4 {
      if buffer[index] == 13, buffer[index + 1] == 10, buffer[index + 2] == 13,
        buffer[index + 3] == 10
      {
        return index
      }
      index += 1
    }
    return nil
  }

  /// Appends whatever the socket has (waiting for at least one byte); false on EOF or error.
  private mutating func receive() -> Bool {
    var chunk = [UInt8](repeating: 0, count: 4096)
    while true {
      let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
      if count > 0 {
        buffer.append(contentsOf: chunk[..<count])
        return true
      }
      if count < 0 && errno == EINTR { continue }
      return false
    }
  }

  /// Reads and drops the request body; false if it cannot be read.
  private mutating func discardBody(of request: RecordedRequest) -> Bool {
    if request.headers["transfer-encoding"] != nil { return false }
    guard let value = request.headers["content-length"] else { return true }
    guard var remaining = Int(value), remaining >= 0 else { return false }
    while remaining > 0 {
      if buffer.isEmpty, !receive() { return false }
      let dropped = min(remaining, buffer.count)
      buffer.removeFirst(dropped)
      remaining -= dropped
    }
    return true
  }

  /// Parses a request line and header fields (without the final blank line).
  static func parse(_ head: String) -> RecordedRequest? {
    let lines = head.split(separator: "\r\n", omittingEmptySubsequences: false)
    let parts = lines.first?.split(separator: " ") ?? []
    guard parts.count == 3, parts[2].hasPrefix("HTTP/1.") else { return nil }
    var headers: [String: String] = [:]
    for line in lines.dropFirst() {
      guard let colon = line.firstIndex(of: ":") else { return nil }
      let name = line[..<colon].lowercased()
      let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
      headers[name] = headers[name].map { "\($0), \(value)" } ?? value
    }
    return RecordedRequest(
      method: String(parts[0]), path: String(parts[1]), headers: headers,
      version: String(parts[2]))
  }
}
