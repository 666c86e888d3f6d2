import Foundation
import OfflineHTTP
import OfflineStore

/// Asks an origin, with one `HEAD` per URL and no body, whether the resources a content was
/// downloaded from are still the versions downloaded: the same strong `ETag`, else the same
/// `Last-Modified` (RFC 9110, section 8.8), and the same length.
struct RemoteCheck: Sendable {
  /// The content's session: the download's options and cookies go with every `HEAD`.
  let session: ContentSession

  /// What the origin says about one piece.
  enum Answer: Sendable, Equatable {
    /// Same validator and length.
    case same
    /// Another validator or length (or the resource is gone: 404, 410).
    case changed
  }

  /// The answer for `piece` (its `url`, validators and size); nil when it records no URL.
  ///
  /// - Throws: ``Transfer/Error`` when the origin cannot be reached or answers an error
  ///   status other than 404 or 410.
  func answer(for piece: PieceRecord) async throws(Transfer.Error) -> Answer? {
    guard let text = piece.url, let url = URL(string: text) else { return nil }
    let head: HTTPResponseHead
    do {
      head = try await session.head(of: url)
    } catch {
      throw Transfer.Error(.network(error), url: url, destination: piece.path)
    }
    if [404, 410].contains(head.status) { return .changed }
    guard (200..<300).contains(head.status) else {
      throw Transfer.Error(.status(head.status, retryAfter: nil), url: url, destination: piece.path)
    }
    let now = Validators(head)
    // A piece of a stream may be a byte range of a larger resource: only a file's own
    // length is the resource's.
    if piece.kind == .file, let length = head.headers["Content-Length"].flatMap(Int64.init),
      length != piece.size
    {
      return .changed
    }
    if let etag = piece.etag { return now.etag == etag ? .same : .changed }
    if let modified = piece.lastModified { return now.lastModified == modified ? .same : .changed }
    // No validator recorded (a record rebuilt from a manifest): only the length tells; a
    // repair still checks every chunk it fetches against its recorded digest.
    return .same
  }
}
