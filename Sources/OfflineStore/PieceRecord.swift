import Foundation

/// What one file of a downloaded content must be, recorded when the download finished: the
/// content's own file, or a piece of a stream (segment, init section, key, offline playlist).
///
/// Holds no secret: a key's bytes are never stored, only their SHA-256.
package struct PieceRecord: Sendable, Equatable, Hashable {
  /// What kind of file it is.
  package enum Kind: String, Sendable, Equatable, Hashable, CaseIterable {
    /// The content's one file.
    case file
    /// A media segment of a stream.
    case segment
    /// An init section (`EXT-X-MAP`, DASH `Initialization`) or an index (`sidx`).
    case initSection = "init"
    /// A decryption key of an HLS stream.
    case key
    /// An offline playlist or manifest written by OfflineKit (`index.m3u8`, `index.mpd`,
    /// `offline.json`).
    case playlist
  }

  /// The content it belongs to.
  package var contentID: String
  /// Its path inside the content's folder (`movie.mp4`, `video/s00001.ts`).
  package var path: String
  /// Its kind.
  package var kind: Kind
  /// Its length in bytes.
  package var size: Int64
  /// Its SHA-256, lowercase hex.
  package var sha256: String
  /// The SHA-256 of each 4 MiB chunk, in order (empty when not recorded: pieces of streams).
  package var chunkSHA256: [String]
  /// Where it was fetched from (nil: written by OfflineKit).
  package var url: String?
  /// The validators of the response it came from, to fetch it again only from the same
  /// version.
  package var etag: String?
  /// The `Last-Modified` of that response.
  package var lastModified: String?
  /// The identity of the file when it was recorded (or last verified whole).
  package var identity: FileIdentity?

  /// Creates a record.
  package init(
    contentID: String, path: String, kind: Kind, size: Int64, sha256: String,
    chunkSHA256: [String] = [], url: String? = nil, etag: String? = nil,
    lastModified: String? = nil, identity: FileIdentity? = nil
  ) {
    self.contentID = contentID
    self.path = path
    self.kind = kind
    self.size = size
    self.sha256 = sha256
    self.chunkSHA256 = chunkSHA256
    self.url = url
    self.etag = etag
    self.lastModified = lastModified
    self.identity = identity
  }
}
