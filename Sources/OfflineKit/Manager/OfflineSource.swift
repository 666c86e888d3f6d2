import Foundation
import OfflineHTTP

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

  /// Creates a source.
  public init(
    url: URL, id: String? = nil, title: String? = nil, metadata: String? = nil,
    requestOptions: RequestOptions = RequestOptions()
  ) {
    self.url = url
    self.id = id
    self.title = title
    self.metadata = metadata
    self.requestOptions = requestOptions
  }
}

/// How one content is downloaded.
public struct DownloadConfig: Sendable, Equatable {
  /// The SHA-256 the file must have, as 64 hex digits.
  public var expectedSHA256: String?
  /// Higher runs first; equal priorities run in the order they were queued.
  public var priority: Int
  /// For an HLS stream: which variant and renditions.
  public var hls: HLSOptions
  /// Connections for one large file (see ``Transfer/Options/connections``); 0 chooses.
  public var connections: Int

  /// Creates a configuration.
  public init(
    expectedSHA256: String? = nil, priority: Int = 0, hls: HLSOptions = HLSOptions(),
    connections: Int = 0
  ) {
    self.expectedSHA256 = expectedSHA256?.lowercased()
    self.priority = priority
    self.hls = hls
    self.connections = max(0, connections)
  }

  /// What the index stores besides the checksum and the priority.
  struct Stored: Codable {
    var hls: HLSOptions
    var connections: Int?
  }

  /// The options as the index stores them.
  var encodedOptions: String? {
    (try? JSONEncoder().encode(Stored(hls: hls, connections: connections)))
      .flatMap { String(data: $0, encoding: .utf8) }
  }

  /// The options stored in the index, or the defaults.
  static func stored(from text: String?) -> Stored {
    text.flatMap { try? JSONDecoder().decode(Stored.self, from: Data($0.utf8)) }
      ?? Stored(hls: HLSOptions(), connections: 0)
  }
}

extension URL {
  /// Whether the URL names an HLS playlist (`.m3u8` or `.m3u`).
  var isHLSPlaylist: Bool {
    ["m3u8", "m3u"].contains(pathExtension.lowercased())
  }
}

/// Why a content in ``OfflineState/downloading`` is not moving.
public enum WaitReason: Sendable, Equatable {
  /// Behind the parallel limit.
  case queued
  /// No network: the host is unreachable from here. Goes on by itself when it is back.
  case network
  /// Not enough free disk space. Goes on by itself when there is.
  case storage
  /// A retry after a transient failure is due at this time.
  case retry(at: Date)
  /// Started, and no bytes have come yet (connecting, or waiting for the response).
  case starting

  /// The name stored in the index and shown by `offline ls`.
  public var name: String {
    switch self {
    case .queued: "queued"
    case .network: "network"
    case .storage: "storage"
    case .retry: "retry"
    case .starting: "starting"
    }
  }

  init?(name: String?, retryAt: Date?) {
    switch name {
    case "queued": self = .queued
    case "network": self = .network
    case "storage": self = .storage
    case "retry": self = .retry(at: retryAt ?? Date())
    case "starting": self = .starting
    default: return nil
    }
  }
}
