import Foundation
import OfflineHTTP
import OfflineStore

/// Cache-or-download for small remote files (thumbnails, JSON, subtitles, documents): the
/// local copy when there is a fresh one, else one download into the store's cache.
///
/// Files live in `<store>/cache/` under a hash of the full URL (or of a custom key, for URLs
/// with rotating tokens), never under the URL's last path component; a download goes through
/// ``Transfer``, so it is written to a `.part` and renamed into place only when complete.
/// Concurrent requests for one key share one download. When the cache grows past its size
/// limit, the least recently used entries go first, down to a lower watermark. Entries older
/// than the maximum age are revalidated with `If-None-Match` / `If-Modified-Since` (RFC 9110,
/// section 13.1); when the network is down, a stale copy is served and says so.
///
/// Content downloaded through ``OfflineContent`` is pinned: a URL that one has downloaded
/// is served from that file, never copied, never evicted, never counted against the limit.
///
/// ```swift
/// let cache = try FileCache(store: storeURL)
/// let loaded = try await cache.data(for: thumbnailURL)
/// image = UIImage(data: loaded.value)
/// if loaded.source == .staleOffline { showOfflineBadge() }
/// ```
///
/// The cache is an actor: it coordinates, keeps the index and decides; bytes move on the
/// transport's thread and in the caller's task. Cancelling a caller does not cancel a
/// download other callers wait for.
public actor FileCache {
  /// How a cache behaves.
  public struct Configuration: Sendable {
    /// The most bytes the cache keeps. Nil (the default) uses the limit saved in the store
    /// (``setSizeLimit(_:)``, `offline cache limit`), else 256 MiB; a value is the app's
    /// choice and wins over the saved one.
    public var sizeLimit: Int64?
    /// Eviction goes down to this fraction of the limit, so it does not run on every store.
    public var lowWatermark: Double
    /// How long an entry is fresh; after that it is revalidated before it is served.
    public var maximumAge: Duration
    /// Where the files go; `<store>/cache` when nil.
    public var directory: URL?
    /// Free space to leave on the disk: a download that would leave less is refused.
    public var minimumFreeSpace: Int64
    /// The most bytes the whole store (offline content and cache) may hold, nil for no
    /// quota; the cache evicts its own entries to stay under it, and refuses when it cannot.
    public var storeQuota: Int64?
    /// When a failed download is tried again.
    public var retry: RetryPolicy
    /// How every request of the cache is made (headers, cookies, credentials…): downloads
    /// and revalidations alike.
    public var requestOptions: RequestOptions
    /// The clock freshness is judged by (an entry's age against ``maximumAge``) and the
    /// cache's downloads retry on; the system's by default.
    public var clock: any Timekeeping

    /// The limit when neither the app nor the store sets one.
    public static let defaultSizeLimit: Int64 = 256 << 20

    /// Creates a configuration with the defaults: the store's limit (else 256 MiB),
    /// revalidation after a day.
    public init(
      sizeLimit: Int64? = nil, lowWatermark: Double = 0.9,
      maximumAge: Duration = .seconds(24 * 3600), directory: URL? = nil,
      minimumFreeSpace: Int64 = 64 << 20, storeQuota: Int64? = nil,
      retry: RetryPolicy = RetryPolicy(
        maximumAttempts: 2, initialDelay: .milliseconds(250), maximumDelay: .seconds(2)),
      requestOptions: RequestOptions = RequestOptions(),
      clock: any Timekeeping = SystemClock.shared
    ) {
      self.requestOptions = requestOptions
      self.clock = clock
      self.sizeLimit = sizeLimit.map { max(0, $0) }
      self.lowWatermark = min(1, max(0, lowWatermark))
      self.maximumAge = maximumAge
      self.directory = directory
      self.minimumFreeSpace = minimumFreeSpace
      self.storeQuota = storeQuota
      self.retry = retry
    }
  }

  /// The store directory (its index and its offline content).
  public nonisolated let store: URL
  /// The folder that holds the cached files.
  public nonisolated let directory: URL
  /// ``directory`` as a path, for building file names on the hit path without `URL`.
  nonisolated let directoryPath: String
  /// The configuration.
  public nonisolated let configuration: Configuration
  /// The size limit in effect: a saved one, else the configuration's.
  public internal(set) var sizeLimit: Int64

  nonisolated let index: OfflineIndex
  nonisolated let transport: any HTTPTransporting
  /// Entries this process has looked up, by key, so a hit needs no query.
  var known: [String: CacheTable.Entry] = [:]
  /// Last uses not yet written to the index.
  var pendingUses: [String: Date] = [:]
  var lastUseFlush = ContinuousClock.now
  /// The cache's bytes as this process counts them; re-read before evicting.
  var totalBytes: Int64
  var inFlight: [String: Task<Outcome, Never>] = [:]
  /// Fresh entries for the hit path, shared with callers outside the actor.
  nonisolated let hot = HitTable(limit: FileCache.knownLimit)

  /// Opens the cache of the store in `store`, creating what is missing.
  ///
  /// - Parameters:
  ///   - store: The store directory, the one an ``OfflineManager`` opens.
  ///   - configuration: Limits and freshness.
  ///   - transport: The HTTP transport; the platform's (`PlatformTransport`, OfflineHTTP) when nil.
  /// - Throws: ``Error`` when the index cannot be opened or the folder cannot be made.
  public init(
    store: URL, configuration: Configuration = Configuration(),
    transport: (any HTTPTransporting)? = nil
  ) throws(FileCache.Error) {
    self.store = store
    self.configuration = configuration
    self.directory =
      configuration.directory
      ?? store.appending(path: "cache", directoryHint: .isDirectory)
    // Without the trailing slash a folder URL's path has: entries were at `cache//ab/…`.
    var path = directory.path(percentEncoded: false)
    while path.count > 1, path.hasSuffix("/") { path.removeLast() }
    self.directoryPath = path
    do {
      self.index = try OfflineIndex(directory: store)
      // Pins: a limit saved once by `cache limit` silently overrode the app's own.
      if let chosen = configuration.sizeLimit {
        self.sizeLimit = chosen
      } else {
        self.sizeLimit = try index.cache.storedSizeLimit() ?? Configuration.defaultSizeLimit
      }
      self.totalBytes = try index.cache.totals().bytes
    } catch {
      throw Error(.index(error))
    }
    self.transport = transport ?? PlatformTransport.make()
    do {
      try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    } catch {
      throw Error(.file(TransferFileError(.createDirectory, errno: EACCES, path: directory.path)))
    }
  }

  /// The local file for `url`: the cached copy when it is there and fresh, else downloaded
  /// (once, however many callers ask at the same time).
  ///
  /// The file stays until it is evicted; read it soon, or copy it, rather than keeping the
  /// path for later. Do not write to it.
  ///
  /// - Parameters:
  ///   - url: An http or https URL.
  ///   - key: A key to use instead of the URL, for URLs whose query changes (signed URLs).
  /// - Throws: ``Error``: the network failed with nothing cached, the server answered an
  ///   error status, the disk or the quota is full, the index failed.
  public nonisolated func fileURL(for url: URL, key: String? = nil)
    async throws(FileCache.Error) -> Loaded<URL>
  {
    let cacheKey = try CacheKey(url: url, custom: key)
    if let hit = hotHit(cacheKey), CacheFiles.size(hit.path) == hit.size {
      return Loaded(value: URL(fileURLWithPath: hit.path), source: .hit, size: hit.size)
    }
    return try await load(url, key: cacheKey)
  }

  /// The bytes for `url`, from the cached copy when it is there and fresh, else downloaded;
  /// see ``fileURL(for:key:)``. The file is read in the caller's task, not on the actor.
  public nonisolated func data(for url: URL, key: String? = nil) async throws(FileCache.Error)
    -> Loaded<Data>
  {
    let cacheKey = try CacheKey(url: url, custom: key)
    if let hit = hotHit(cacheKey), let data = CacheFiles.read(hit.path, size: hit.size) {
      return Loaded(value: data, source: .hit, size: hit.size)
    }
    for _ in 0..<3 {
      let loaded = try await load(url, key: cacheKey)
      let path = loaded.value.path(percentEncoded: false)
      // A file that vanished or changed length under us (evicted, damaged) is a miss.
      if let data = CacheFiles.read(path, size: loaded.size) {
        return Loaded(value: data, source: loaded.source, size: loaded.size)
      }
      if loaded.source == .pinned {
        throw Error(.file(TransferFileError(.read, errno: EIO, path: path)))
      }
      await discard(cacheKey.hash)
    }
    throw Error(.file(TransferFileError(.read, errno: EIO, path: cacheKey.path(in: directoryPath))))
  }

  /// A fresh entry from the hit table, without a hop onto the actor; writes a batch of
  /// last uses when one is due.
  nonisolated func hotHit(_ key: CacheKey) -> HitTable.Hot? {
    guard let hit = hot.hit(key.hash, now: configuration.clock.now) else { return nil }
    if let uses = hot.takeUses(batch: Self.useBatchSize, interval: Self.useFlushInterval) {
      try? index.cache.recordUses(uses)
    }
    return hit
  }
}
