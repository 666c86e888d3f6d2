import Foundation
import OfflineHTTP

/// Answers a GET or HEAD for one regular file: validators (`ETag`, `Last-Modified`),
/// conditional requests (`If-None-Match`, `If-Modified-Since`, `If-Range`) and one byte
/// range (206, or 416), streaming the bytes from the file (RFC 9110, 13 and 14).
enum FileResponder {
  /// The response for `path`, already known to lie inside the content's folder; 404 when
  /// it is not a regular file.
  static func respond(path: String, to request: HTTPRequest, headers extra: [(String, String)])
    -> HTTPResponse
  {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
    guard descriptor >= 0 else { return .text(404, "No such file.") }
    var info = stat()
    guard fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
      close(descriptor)
      return .text(404, "No such file.")
    }
    let length = Int64(info.st_size)
    let nanoseconds = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
    let etag =
      "\"\(String(UInt64(info.st_ino), radix: 16))-\(String(length, radix: 16))"
      + "-\(String(nanoseconds, radix: 16))\""
    let lastModified = HTTPDate.format(secondsSince1970: Int(info.st_mtim.tv_sec))
    var headers =
      extra + [("ETag", etag), ("Last-Modified", lastModified), ("Accept-Ranges", "bytes")]

    if let match = request.header("if-none-match") {
      let tags = match.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
      if tags.contains("*") || tags.contains(etag) || tags.contains("W/" + etag) {
        close(descriptor)
        return HTTPResponse(status: 304, headers: headers)
      }
    } else if request.header("if-modified-since") == lastModified {
      close(descriptor)
      return HTTPResponse(status: 304, headers: headers)
    }

    var range = RangeRequest(header: request.header("range"), length: length)
    if let ifRange = request.header("if-range"), ifRange != etag, ifRange != lastModified {
      range = .whole  // the client's copy is of another version: send this one whole
    }
    switch range {
    case .whole:
      return HTTPResponse(
        status: 200, headers: headers,
        body: .file(descriptor: descriptor, offset: 0, length: length))
    case .part(let first, let last):
      headers.append(("Content-Range", "bytes \(first)-\(last)/\(length)"))
      return HTTPResponse(
        status: 206, headers: headers,
        body: .file(descriptor: descriptor, offset: first, length: last - first + 1))
    case .unsatisfiable:
      close(descriptor)
      return HTTPResponse(
        status: 416, headers: headers + [("Content-Range", "bytes */\(length)")])
    }
  }
}
