import Foundation

/// What a nearby `offline serve` holds for one origin URL: the answer of its
/// `GET /api/by-url?url=…`, which another machine's download asks before it fetches from the
/// origin (`offline get URL --peer http://host:8380`).
///
/// ```json
/// {"id": "a1b2", "state": "downloaded", "length": 1048576, "sha256": "…",
///  "contentPath": "/content/a1b2/movie.mp4"}
/// ```
package struct PeerCopy: Codable, Sendable, Equatable {
  /// The content's id in the peer's store.
  package var id: String
  /// The content's state (``OfflineState``'s raw value); only `downloaded` copies are told.
  package var state: String
  /// The file's length in bytes.
  package var length: Int64
  /// The file's SHA-256 (lowercase hex), when the peer recorded one.
  package var sha256: String?
  /// The `ETag` the origin answered the peer's download with, when it told one.
  package var etag: String?
  /// `/content/<id>/<file>`: where the peer serves the file.
  package var contentPath: String

  /// Creates an answer.
  package init(
    id: String, state: String, length: Int64, sha256: String?, etag: String?,
    contentPath: String
  ) {
    self.id = id
    self.state = state
    self.length = length
    self.sha256 = sha256
    self.etag = etag
    self.contentPath = contentPath
  }
}
