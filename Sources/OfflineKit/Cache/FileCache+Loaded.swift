import Foundation

extension FileCache {
  /// Where a served file came from.
  public enum Source: String, Sendable, Equatable, CaseIterable {
    /// A fresh copy in the cache; nothing went over the network.
    case hit
    /// Downloaded now: there was no copy, or the server sent a changed one.
    case downloaded
    /// The copy was stale; the server confirmed it unchanged (304), so no body was sent.
    case revalidated
    /// The copy was stale and the network is unreachable: served anyway, possibly outdated.
    case staleOffline
    /// Offline content downloaded through ``OfflineContent``, served from its own file.
    case pinned
  }

  /// A served file or its bytes, and where it came from.
  public struct Loaded<Value: Sendable>: Sendable {
    /// The file URL, or the bytes.
    public var value: Value
    /// Where it came from.
    public var source: Source
    /// The file's length in bytes.
    public var size: Int64

    /// Whether it may be outdated: stale and served because the network is down.
    public var isStale: Bool { source == .staleOffline }
  }

  /// One entry of the cache, for listings.
  public struct Entry: Sendable, Equatable {
    /// The URL it was downloaded from.
    public var url: URL
    /// The cache key (a SHA-256, in hex).
    public var key: String
    /// The cached file.
    public var fileURL: URL
    /// Its length in bytes.
    public var size: Int64
    /// When it was downloaded or last confirmed by the server.
    public var validatedAt: Date
    /// When it was last served.
    public var lastUsedAt: Date
    /// Whether it is older than the maximum age (it is revalidated before it is served).
    public var isStale: Bool
  }

  /// The cache's size and use, and what the store around it holds.
  public struct Statistics: Sendable, Equatable {
    /// Entries in the cache.
    public var entryCount: Int
    /// Bytes in the cache.
    public var bytes: Int64
    /// The size limit in effect.
    public var sizeLimit: Int64
    /// Bytes of offline content (pinned: never evicted, not counted in ``bytes``).
    public var pinnedBytes: Int64
    /// The store quota, if there is one.
    public var storeQuota: Int64?
    /// Free bytes on the disk that holds the cache, when it can be read.
    public var availableBytes: Int64?
  }

  /// How one load ended, shared by every caller that waited for it.
  typealias Outcome = Swift.Result<Loaded<URL>, FileCache.Error>
}
