import Foundation
import OfflineKit

/// Answers a GET or HEAD for one piece of a stream that is downloading or suspended, by the
/// name the read-through playlist (`index-through.m3u8`) gives it: a segment or init section
/// not on disk yet, or one kept in a pack. Found through
/// ``OfflineKit/OfflineContent/piece(_:restrictedToAssetCache:patience:)``, which asks
/// the running download for a missing piece and waits for it (never when restricted to what
/// is on disk: then 404 at once).
///
/// The piece's bytes are served whole or by one byte range inside them (206, or 416), with
/// no validators: until the stream is complete, a piece is not served twice as the same
/// file. A piece the download is fetching is streamed as its bytes arrive, once its length
/// is known and its first bytes are on disk (``GrowingBodyStream``).
enum PieceResponder {
  /// How long a request waits for a piece that is not on disk.
  static let patience: Duration = .seconds(60)

  /// The response for piece `local` of `content`, to `request`.
  static func respond(
    to request: HTTPRequest, content: OfflineContent, local: String, in folder: URL,
    restricted: Bool, headers extra: [(String, String)]
  ) async -> HTTPResponse {
    let source: PieceSource?
    do {
      source = try await content.piece(
        local, restrictedToAssetCache: restricted, patience: patience)
    } catch {
      return .text(409, error.localizedDescription)
    }
    var headers = extra + [("Accept-Ranges", "bytes"), ("Cache-Control", "no-store")]
    switch source {
    case .onDisk(let bytes):
      return onDisk(bytes, request: request, in: folder, headers: headers)
    case .arriving(let piece):
      let length = piece.length
      var (first, last, status) = (Int64(0), length - 1, 200)
      switch RangeRequest(header: request.header("range"), length: length) {
      case .whole:
        break
      case .part(let from, let to):
        (first, last, status) = (from, to, 206)
        headers.append(("Content-Range", "bytes \(from)-\(to)/\(length)"))
      case .unsatisfiable:
        piece.close()
        return HTTPResponse(
          status: 416, headers: headers + [("Content-Range", "bytes */\(length)")])
      }
      return HTTPResponse(
        status: status, headers: headers,
        body: .stream(
          GrowingBodyStream(
            from: first, through: last,
            read: { buffer, offset in
              switch piece.read(into: buffer, at: offset) {
              case .bytes(let count): .bytes(count)
              case .notYet: .later
              case .gone: .end
              }
            }, onChange: { piece.onChange($0) }, close: { piece.close() }),
          length: last - first + 1))
    case nil:
      return .text(
        404,
        restricted
          ? "No such file on disk." : "No such file: the download has not fetched it in time.")
    }
  }

  /// The response for a piece whose bytes are all on disk.
  private static func onDisk(
    _ bytes: PieceBytes, request: HTTPRequest, in folder: URL, headers: [(String, String)]
  ) -> HTTPResponse {
    var headers = headers
    // The journal names files inside the folder; whatever lies on the way, nothing outside
    // it is opened.
    let base = folder.path + "/"
    guard bytes.path.hasPrefix(base),
      let path = ContentRoute.resolve(
        bytes.path.dropFirst(base.count).split(separator: "/").map(String.init), in: folder)
    else { return .text(404, "No such file.") }
    let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
    guard descriptor >= 0 else { return .text(404, "No such file.") }
    switch RangeRequest(header: request.header("range"), length: bytes.length) {
    case .whole:
      return HTTPResponse(
        status: 200, headers: headers,
        body: .file(descriptor: descriptor, offset: bytes.offset, length: bytes.length))
    case .part(let first, let last):
      headers.append(("Content-Range", "bytes \(first)-\(last)/\(bytes.length)"))
      return HTTPResponse(
        status: 206, headers: headers,
        body: .file(
          descriptor: descriptor, offset: bytes.offset + first, length: last - first + 1))
    case .unsatisfiable:
      close(descriptor)
      return HTTPResponse(
        status: 416, headers: headers + [("Content-Range", "bytes */\(bytes.length)")])
    }
  }
}
