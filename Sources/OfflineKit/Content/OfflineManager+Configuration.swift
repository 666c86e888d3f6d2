import Foundation
import OfflineHTTP
import OfflineLocks
import OfflineStore

extension OfflineManager {
  /// How the manager schedules downloads.
  public struct Configuration: Sendable {
    /// Downloads running at once.
    public var parallelDownloads: Int
    /// When failed downloads are tried again.
    public var retry: RetryPolicy
    /// How often the runner looks for changes made by other processes, due retries, the
    /// network and free space.
    public var pollInterval: Duration
    /// Free space to leave on the disk (64 MiB by default); a download waits (reason
    /// `storage`) until this much would remain after it, and one that could not leave this
    /// much even on the empty file system is suspended with
    /// ``OfflineError/Code/insufficientCapacity``.
    public var minimumFreeSpace: Int64
    /// The HTTP transport; the platform's (`PlatformTransport`, OfflineHTTP) when nil.
    public var transport: (any HTTPTransporting)?
    /// Tells whether a host can be reached (reason `network`).
    public var reachability: any Reachable
    /// The most bytes the store (offline content and ``FileCache`` entries) may hold; a
    /// download waits (reason `storage`) while it would go over. Nil for no quota.
    public var storeQuota: Int64?
    /// The most bytes per second all running downloads receive together, nil for no cap;
    /// change it while the manager runs with ``OfflineManager/setRateLimit(_:keep:)``.
    public var rateLimit: ByteRate?
    /// Asked for a fresh URL when a content's request is answered 401, 403 or 410 (a
    /// signed URL that expired); nil fails such a download with the status.
    public var urlRefresh: URLRefresh?
    /// The most connections to one origin for each stream's pieces over HTTP/1.1
    /// (`run --max-connections`), over what the content was added with
    /// (``StreamConfiguration/maxConnections``); nil keeps that.
    public var maxStreamConnections: Int?
    /// The clock the runner and its downloads read and sleep on (the system's by default):
    /// poll intervals, retry and backoff delays, waits for space, progress and checkpoint
    /// intervals, the refresh hook's timeout and a URL's expiry
    /// (``OfflineSource/urlExpiresAt``). Tests hand in one they move by hand.
    public var clock: any Timekeeping
    /// Whether a call that asks for work (``OfflineContent/download(_:)``,
    /// ``OfflineContent/resume()``, ``OfflineManager/add(_:configuration:)``) starts working
    /// the queue, as ``OfflineManager/start()`` does (true, the default). When another
    /// process works the store's queue, that one starts the download. False leaves the
    /// queue to an explicit ``OfflineManager/start()`` or ``OfflineManager/runUntilIdle()``,
    /// as the command line's `add` leaves it to `run`.
    public var startsWhenAsked = true
    /// Where the manager reports what it could not do and went on without (a record it
    /// could not read or write, files it could not delete): nowhere by default. See
    /// ``OfflineLogMessage``.
    public var log: @Sendable (OfflineLogMessage) -> Void = { _ in }

    /// Creates a configuration with the defaults.
    public init(
      parallelDownloads: Int = 3, retry: RetryPolicy = RetryPolicy(),
      pollInterval: Duration = .milliseconds(250), minimumFreeSpace: Int64 = 64 << 20,
      transport: (any HTTPTransporting)? = nil,
      reachability: any Reachable = Reachability.platformDefault(),
      storeQuota: Int64? = nil, rateLimit: ByteRate? = nil, urlRefresh: URLRefresh? = nil,
      clock: any Timekeeping = SystemClock.shared
    ) {
      self.clock = clock
      self.parallelDownloads = max(1, parallelDownloads)
      self.retry = retry
      self.pollInterval = pollInterval
      self.minimumFreeSpace = minimumFreeSpace
      self.transport = transport
      self.reachability = reachability
      self.storeQuota = storeQuota
      self.rateLimit = rateLimit
      self.urlRefresh = urlRefresh
    }
  }
}
