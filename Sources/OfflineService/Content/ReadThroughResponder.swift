import Foundation
import OfflineKit
import OfflineLocks

/// Answers a GET or HEAD for the file of a content that is downloading or suspended, through
/// an ``OfflineKit/OfflineFileReader``: the bytes on disk at once, the others as they land.
///
/// - Unrestricted (the default), a response runs from the asked byte to the asked end (the
///   file's end for `bytes=N-`, as players ask) and streams as the bytes land; the bytes it
///   waits for are asked of the download, which fetches them ahead of the rest.
/// - Restricted to what is on disk (`?offline=1`), nothing reaches the network: a range is
///   answered with the bytes on disk from its first byte on (206, possibly shorter than
///   asked, which players follow with the next range), or 416 when its first byte is not
///   on disk.
///
/// Until the download's first response tells the file's length, nothing can be answered:
/// a request waits up to ``lengthPatience`` for it, then gets 503 with `Retry-After`. No
/// validators are sent: the file is not whole yet.
enum ReadThroughResponder {
  /// How long a request waits for the file's length.
  static let lengthPatience: Duration = .seconds(10)

  /// The response for `content`'s file, to `request`.
  static func respond(
    to request: HTTPRequest, content: OfflineContent, restricted: Bool,
    headers extra: [(String, String)]
  ) async -> HTTPResponse {
    let reader: OfflineFileReader
    do {
      reader = try await content.openFileReader(restrictedToAssetCache: restricted)
    } catch {
      return .text(409, error.localizedDescription)
    }
    guard let length = await length(of: reader, restricted: restricted) else {
      reader.close()
      return .text(
        503, "The length of the file is not known yet: its download has not started.",
        headers: [("Retry-After", "1")])
    }
    var headers = extra + [("Accept-Ranges", "bytes"), ("Cache-Control", "no-store")]
    var (first, last, status) = (Int64(0), length - 1, 200)
    switch RangeRequest(header: request.header("range"), length: length) {
    case .whole:
      break
    case .part(let from, let to):
      (first, last, status) = (from, to, 206)
    case .unsatisfiable:
      reader.close()
      return HTTPResponse(
        status: 416, headers: headers + [("Content-Range", "bytes */\(length)")])
    }
    if restricted {
      let onDisk = reader.available(from: first)
      guard onDisk > 0, status == 206 || onDisk >= length else {
        reader.close()
        return HTTPResponse(
          status: 416, headers: headers + [("Content-Range", "bytes */\(length)")])
      }
      last = min(last, first + onDisk - 1)
    }
    if status == 206 { headers.append(("Content-Range", "bytes \(first)-\(last)/\(length)")) }
    // A HEAD gets the same headers; libmicrohttpd sends no body, and frees the stream.
    if !restricted, request.method != "HEAD" { reader.want(from: first) }
    return HTTPResponse(
      status: status, headers: headers,
      body: .stream(stream(reader, from: first, through: last), length: last - first + 1))
  }

  /// The file's length, waiting for it (never for a restricted reader, which waits for
  /// nothing).
  private static func length(of reader: OfflineFileReader, restricted: Bool) async -> Int64? {
    if let length = reader.length { return length }
    guard !restricted else { return nil }
    reader.want(from: 0)  // a content queued behind others starts now
    let clock = ContinuousClock()
    let deadline = clock.now + lengthPatience
    while clock.now < deadline {
      try? await Task.sleep(for: .milliseconds(50))
      if let length = reader.length { return length }
    }
    return nil
  }

  /// The bytes `first` to `last` of `reader`'s file as they land; a byte not on disk is
  /// asked of the download first (unless the reader is restricted: then the body ends).
  private static func stream(_ reader: OfflineFileReader, from first: Int64, through last: Int64)
    -> GrowingBodyStream
  {
    GrowingBodyStream(
      from: first, through: last,
      read: { buffer, offset in
        let read: Int
        do {
          read = try reader.read(into: buffer, at: offset)
        } catch {
          return .end  // the file changed under the reader: the response stops short
        }
        guard read == 0 else { return .bytes(read) }
        if reader.isRestrictedToAssetCache { return .end }
        // Bytes that land from here on wake the connection, whose suspension holds the
        // wake off until it is done.
        reader.want(from: offset)
        return .later
      },
      onChange: { reader.onChange($0) },
      close: {
        reader.want(from: nil)
        reader.close()
      })
  }
}
