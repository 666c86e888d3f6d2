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

  /// Creates a source.
  public init(
    url: URL, id: String? = nil, title: String? = nil, metadata: String? = nil,
    requestOptions: RequestOptions = RequestOptions(), urlExpiresAt: Date? = nil
  ) {
    self.urlExpiresAt = urlExpiresAt
    self.url = url
    self.id = id
    self.title = title
    self.metadata = metadata
    self.requestOptions = requestOptions
  }
}

/// How one content is downloaded.
public struct DownloadConfig: Sendable, Equatable {
  /// The SHA-256 the file must have, as 64 lowercase hex digits; nil to check only the
  /// length. Set by ``init(expectedSHA256:priority:hls:connections:)``, which refuses
  /// anything else.
  public private(set) var expectedSHA256: String?
  /// Higher runs first; equal priorities run in the order they were queued.
  public var priority: Int
  /// For an HLS stream: which variant and renditions.
  public var hls: HLSOptions
  /// Connections for one file (see ``Transfer/Connections``).
  public var connections: Transfer.Connections

  /// Creates a configuration that checks the file's length.
  public init(
    priority: Int = 0, hls: HLSOptions = HLSOptions(),
    connections: Transfer.Connections = .adaptive
  ) {
    self.priority = priority
    self.hls = hls
    self.connections = connections.normalized
  }

  /// Creates a configuration that also checks the file's SHA-256 (nil: the length only).
  ///
  /// - Throws: ``OfflineError`` (`invalidChecksum`) when `expectedSHA256` is not 64
  ///   hexadecimal digits: a checksum that can never match is refused now, not after the
  ///   download.
  public init(
    expectedSHA256: String?, priority: Int = 0, hls: HLSOptions = HLSOptions(),
    connections: Transfer.Connections = .adaptive
  ) throws(OfflineError) {
    self.init(priority: priority, hls: hls, connections: connections)
    self.expectedSHA256 = try SHA256.checkedHex(expectedSHA256)
  }

  /// What the index stores besides the checksum and the priority (the `options` column).
  struct Stored: Codable, Equatable {
    var hls: HLSOptions
    var connections: Transfer.Connections?
  }

  /// The options as the index stores them.
  var storedOptions: StoredJSON? {
    try? StoredJSON(encoding: Stored(hls: hls, connections: connections))
  }

  /// The options stored in `record`: the defaults when it has none.
  ///
  /// - Throws: ``OfflineError`` (`index`) when they are not options this version knows;
  ///   never a silent default.
  static func stored(in record: ContentRecord) throws(OfflineError) -> Stored {
    guard let options = record.options else { return Stored(hls: HLSOptions(), connections: nil) }
    do {
      return try options.decoded(as: Stored.self)
    } catch {
      throw OfflineError(.index(error), contentID: record.id)
    }
  }
}

extension URL {
  /// Whether the URL names an HLS playlist (`.m3u8` or `.m3u`).
  var isHLSPlaylist: Bool {
    ["m3u8", "m3u"].contains(pathExtension.lowercased())
  }
}

/// Why a content in `downloading` is not moving: queued, waiting for the
/// network, for disk space, for a retry at a time, or started and waiting for its first
/// bytes. The index stores it as it is (`ContentWaitReason` in OfflineStore).
public typealias WaitReason = ContentWaitReason
