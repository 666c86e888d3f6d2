import Foundation

/// What a nearby `offline serve` holds for one origin URL: the answer of its
/// `GET /api/by-url?url=…`, which another machine's download asks before it fetches from the
/// origin (`offline get URL --peer http://host:8380`).
///
/// ```json
/// {"id": "a1b2", "state": "downloaded", "length": 1048576, "sha256": "…",
///  "chunkSize": 4194304, "chunkSHA256": ["…"], "contentPath": "/content/a1b2/movie.mp4"}
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
  /// The length of each chunk ``chunkSHA256`` hashes (the last may be shorter); nil when
  /// the peer recorded no chunk hashes.
  package var chunkSize: Int64?
  /// The SHA-256 of each chunk of the file as the peer recorded it at its download
  /// (lowercase hex, in order): the asking machine checks each piece the peer serves
  /// against it, so a piece changed on the peer's disk since is caught and fetched again
  /// from the origin alone.
  package var chunkSHA256: [String]?

  /// Creates an answer.
  package init(
    id: String, state: String, length: Int64, sha256: String?, etag: String?,
    contentPath: String, chunkSize: Int64? = nil, chunkSHA256: [String]? = nil
  ) {
    self.id = id
    self.state = state
    self.length = length
    self.sha256 = sha256
    self.etag = etag
    self.contentPath = contentPath
    self.chunkSize = chunkSize
    self.chunkSHA256 = chunkSHA256
  }

  /// The chunk hashes as piece checks of the file: nil when the peer told none, or ones
  /// that do not cover ``length`` exactly or are not SHA-256 hex.
  var pieceChecks: PieceChecks? {
    guard let chunkSize, chunkSize > 0, let hashes = chunkSHA256,
      Int64(hashes.count) == (length + chunkSize - 1) / chunkSize,
      hashes.allSatisfy(SHA256.isValidHex)
    else { return nil }
    return PieceChecks(length: chunkSize, size: length, hashes: hashes.map { $0.lowercased() })
  }
}
