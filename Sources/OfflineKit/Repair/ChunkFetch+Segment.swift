import Foundation
import OfflineHTTP
import OfflineStore

extension ChunkFetch {
  /// The staged part of the packed segment at `offset` in the pack at `path`.
  static func stagedPath(ofPack path: String, segmentAt offset: Int64) -> String {
    path + ".seg\(offset).part"
  }

  /// Fetches the whole segment `piece` (a piece of a pack) into `staged` with a plain `GET`
  /// and checks its length and its SHA-256 against those its download recorded: bytes of
  /// another version, even under the same `ETag`, `Last-Modified` and length (a CDN that
  /// serves new bytes under old validators), are refused with ``Failure/originChanged``.
  /// Returns the body bytes received.
  func fetch(segment piece: PackedPiece, into staged: String) async throws(Failure) -> Int64 {
    guard let url = URL(string: piece.url) else { throw .originChanged }
    let fd = Self.createStaged(staged)
    guard fd >= 0 else {
      throw .transfer(
        Transfer.Error(
          .file(TransferFileError(.open, errno: errno, path: staged)), url: url,
          destination: staged))
    }
    defer { close(fd) }
    let fetched = await session.body(of: session.request(url), into: fd, limit: piece.length) {
      $0.status == 200
    }
    let head: HTTPResponseHead
    switch fetched.answer {
    case .success(let answered):
      head = answered
    case .failure(let error):
      if fetched.overran { throw .originChanged }  // longer than the segment recorded
      throw .transfer(Transfer.Error(.network(error), url: url, destination: staged))
    }
    guard head.status == 200 else {
      let retryAfter = head.headers["Retry-After"].flatMap { RetryAfter.delay(from: $0) }
      throw .transfer(
        Transfer.Error(.status(head.status, retryAfter: retryAfter), url: url, destination: staged))
    }
    guard fetched.written == piece.length else { throw .originChanged }
    guard Durability.syncData(fd) == 0 else {
      throw .transfer(
        Transfer.Error(
          .file(TransferFileError(.sync, errno: errno, path: staged)), url: url,
          destination: staged))
    }
    let hasher = SHA256()
    guard (try? hasher.feed(fromFile: fd, length: fetched.written)) != nil,
      hasher.finalizeHex() == piece.sha256
    else { throw .originChanged }
    return fetched.written
  }
}
