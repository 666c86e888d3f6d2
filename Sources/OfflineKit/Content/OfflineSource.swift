import Foundation
import OfflineHTTP
import OfflineStore

/// What to make available offline: a URL, and how the app knows it.
public struct OfflineSource: Sendable, Equatable {
  /// The http or https URL of the file.
  public var url: URL
  /// A stable id of the app's choosing; generated when nil.
  public var id: String?
  /// A title for people.
  public var title: String?
  /// The app's own data (JSON by convention), kept with the content.
  public var metadata: String?
  /// How every request of the content is made (headers, cookies, credentials, user agent,
  /// referer, proxy): the file, or a stream's playlists, segments, keys and init sections.
  /// The manager keeps them for the content while it runs; checked when the source is given.
  public var requestOptions: RequestOptions
  /// When the URL stops working, if the app knows (a signed URL's expiry): once it has
  /// passed, the manager asks its ``URLRefresh`` for a fresh URL before the next request
  /// instead of waiting for a 401, 403 or 410. Kept with the content; nil keeps what an
  /// earlier call gave.
  public var urlExpiresAt: Date?
  /// Other http or https URLs serving the same file (mirrors). Kept with the content, so a
  /// queued or resumed download uses them too; each is checked against the URL's length
  /// before any of its bytes are used, and one that disagrees is dropped. Secrets of
  /// ``requestOptions`` are never sent to them. Empty keeps what an earlier call gave.
  /// Streams (HLS, DASH) ignore them.
  public var mirrors: [URL]
  /// Nearby `offline serve`s (`http://host:8380/?token=…`) asked for the file by its URL
  /// before the origin: one that holds it downloaded serves it as a mirror preferred to the
  /// origin, checked like any mirror; one that is down or holds nothing leaves it to the
  /// origin. Kept with the content like ``mirrors``; empty keeps what an earlier call gave.
  /// Streams ignore them.
  public var peers: [URL] = []
  /// The name to save a file under, in place of the one its URL gives (a Metalink's);
  /// only its last component is used, made safe, so it never leaves the content's folder.
  package var fileName: String?
  /// The SHA-256 of each piece of a file (a Metalink's), kept with the content so each
  /// piece is checked as it lands and a bad one is fetched again alone, in any process and
  /// after a resume. Their `size` is the length the file must have.
  package var pieceChecks: PieceChecks?

  /// Creates a source.
  public init(
    url: URL, id: String? = nil, title: String? = nil, metadata: String? = nil,
    requestOptions: RequestOptions = RequestOptions(), urlExpiresAt: Date? = nil,
    mirrors: [URL] = []
  ) {
    self.mirrors = mirrors
    self.urlExpiresAt = urlExpiresAt
    self.url = url
    self.id = id
    self.title = title
    self.metadata = metadata
    self.requestOptions = requestOptions
  }
}

extension URL {
  /// Whether the URL names an HLS playlist (`.m3u8` or `.m3u`).
  var isHLSPlaylist: Bool {
    ["m3u8", "m3u"].contains(pathExtension.lowercased())
  }
}
