import Foundation

/// One content of an ``OfflineManager``: a source URL, its state, its events, and the local
/// file once downloaded.
///
/// A handle: cheap to copy around, every call goes to the manager. Calls that the state
/// machine does not allow (see ``OfflineState``) throw ``OfflineError`` and change nothing.
///
/// ```swift
/// let content = try await manager.content(for: OfflineSource(url: url, title: "Trailer"))
/// try await content.download()  // starts it
/// let progress = Task {
///   for await case .progress(let progress) in content.events {
///     print(progress.fractionCompleted ?? 0)
///   }
/// }
/// print(try await content.waitUntilDownloaded().path)
/// progress.cancel()
/// ```
public struct OfflineContent: Sendable, Identifiable {
  /// The stable id.
  public let id: String
  let manager: OfflineManager

  /// Where the content stands, read from the index.
  public var snapshot: Snapshot {
    get async throws(OfflineError) { try await manager.snapshot(id: id) }
  }

  /// The current state.
  public var state: OfflineState {
    get async throws(OfflineError) { try await snapshot.state }
  }

  /// The local file or playlist a player opens: the one way to get it, checked first.
  ///
  /// For an HLS stream, `restrictedToAssetCache` true (the default) lists only what was
  /// downloaded (`index.m3u8`); false keeps the variants and renditions that were not
  /// downloaded, with their remote URLs (`index-remote.m3u8`). A plain file or a DASH
  /// presentation is the same either way. A stream folder written by an earlier version (keys
  /// that stock players refuse to open) is upgraded first, atomically, so what this returns
  /// plays in ffmpeg and mpv.
  ///
  /// An HLS stream that is `downloading` or `suspended` plays too. With
  /// `restrictedToAssetCache` true it is `index-partial.m3u8`: the segments on disk from the
  /// first one on, as an `EVENT` playlist that the download rewrites at most once a second
  /// while it runs; players (ffmpeg, mpv, AVPlayer) reload it and play on, and it ends with
  /// `EXT-X-ENDLIST` once the stream is complete. With false it is
  /// `index-remote-partial.m3u8`: every segment, local when it is on disk and the origin's
  /// URL when it is not. A DASH presentation that is `downloading` or `suspended` plays
  /// from `index-partial.mpd` with `restrictedToAssetCache` true: a static MPD of what is on
  /// disk, rewritten at most once a second while it downloads (players read a static MPD
  /// once: open it again to play on); with false it has no local source (the local service
  /// reads it through: `index-through.mpd`).
  ///
  /// ```swift
  /// let url = try await content.playbackURL()  // downloaded, or a stream on its way
  /// ```
  ///
  /// - Throws: ``OfflineError`` with the code ``OfflineError/Code/notPlayable`` (and the
  ///   content's ``OfflineError/state``) when the content is not downloaded, unless it is an
  ///   HLS stream downloading or suspended whose playlists the download has written;
  ///   ``OfflineError/Code/damaged``, naming what is missing or has another size, when the
  ///   quick check finds a file is not there as downloaded: never a broken playlist handed to
  ///   a player. (A file only `changed` since, same size, is listed in ``Snapshot/damage`` but
  ///   not refused: ``verify(progress:)`` settles it.) The content's events get the same
  ///   damage error.
  public func playbackURL(restrictedToAssetCache: Bool = true) async throws(OfflineError) -> URL {
    var current = try await snapshot
    guard current.state == .downloaded else {
      return try partialPlaybackURL(of: current, restrictedToAssetCache: restrictedToAssetCache)
    }
    if current.fileURL.lastPathComponent == "index.m3u8" {
      // Best effort: a folder that cannot be upgraded still plays in AVFoundation.
      let upgraded = try? HLSKeyNames.upgrade(
        folder: current.fileURL.deletingLastPathComponent(), entryURL: current.url)
      if upgraded == true { current = try await snapshot }  // its keys moved back
    }
    if let damage = current.damage, damage.isMissingOrResized {
      throw await manager.reportDamage(damage, id: id)
    }
    let local = current.fileURL
    guard !restrictedToAssetCache, local.lastPathComponent == "index.m3u8" else { return local }
    return local.deletingLastPathComponent().appending(path: "index-remote.m3u8")
  }

  /// The growing playlist of an HLS stream that is downloading or suspended
  /// (``HLSGrowingPlaylists``), or the growing MPD of a DASH presentation restricted to the
  /// disk (``DASHPartialManifest``), once its download has written it.
  private func partialPlaybackURL(of current: Snapshot, restrictedToAssetCache: Bool)
    throws(OfflineError) -> URL
  {
    let name: String?
    switch (current.fileURL.lastPathComponent, restrictedToAssetCache) {
    case ("index.m3u8", true): name = HLSGrowingPlaylists.restrictedIndex
    case ("index.m3u8", false): name = HLSGrowingPlaylists.mixedIndex
    case ("index.mpd", true): name = DASHPartialManifest.fileName
    default: name = nil
    }
    guard let name, current.state == .downloading || current.state == .suspended else {
      throw OfflineError(.notPlayable(current.state), contentID: id)
    }
    let partial = current.fileURL.deletingLastPathComponent().appending(path: name)
    guard case .regular = DurableFile.kind(partial.path) else {
      throw OfflineError(.notPlayable(current.state), contentID: id)
    }
    return partial
  }

  /// Fetches the keys of a downloaded HLS stream again (rotated or expiring key URLs)
  /// without downloading segments; sends `keysRenewed`.
  ///
  /// - Returns: How many keys were renewed.
  @discardableResult
  public func renewKeys() async throws(OfflineError) -> Int {
    try await manager.renewKeys(id: id)
  }

  /// Queues the download (notDownloaded → downloading).
  public func download(_ configuration: DownloadConfiguration = DownloadConfiguration())
    async throws(OfflineError)
  {
    try await manager.perform(.download, id: id, configuration: configuration)
  }

  /// Pauses, keeping partial data (downloading → suspended).
  public func suspend() async throws(OfflineError) {
    try await manager.perform(.suspend, id: id)
  }

  /// Goes on where it stopped (suspended → downloading).
  public func resume() async throws(OfflineError) {
    try await manager.perform(.resume, id: id)
  }

  /// Stops and deletes every partial byte (downloading or suspended → canceling →
  /// notDownloaded). Returns once the state is `canceling`; the `canceled` event follows when
  /// the data is gone.
  public func cancel() async throws(OfflineError) {
    try await manager.perform(.cancel, id: id)
  }

  /// Deletes the downloaded file (downloaded → notDownloaded).
  public func deleteOfflineData() async throws(OfflineError) {
    try await manager.perform(.delete, id: id)
  }

  /// A new stream of this content's events, for one subscriber, made at once. The first
  /// element is where the content stands (`changed` with its snapshot), so a late
  /// subscriber knows; nothing sent after it is missed. The stream ends when the subscriber
  /// stops iterating (or its task is cancelled) or the manager closes
  /// (``OfflineManager/close()``). When the index cannot say where the content stands (it
  /// is gone, or holds a value this version does not know), the only element is
  /// `finished(.failure)` with that error.
  public var events: OfflineEvents<Event> { manager.events(for: id) }

  /// Waits until the content is downloaded, and returns the local file to play or open
  /// (``playbackURL(restrictedToAssetCache:)``). Returns at once when it is downloaded
  /// already. Built on ``events``: it returns or throws at the attempt's `finished`.
  ///
  /// A suspended content is waited for until it resumes and finishes.
  ///
  /// - Throws: ``OfflineError``: the download's own error when it fails for good;
  ///   `canceled` when it is canceled; `notQueued` when it is not downloaded and no
  ///   download is queued; `closed` when the manager closes, or the waiting task is
  ///   cancelled, first.
  public func waitUntilDownloaded() async throws(OfflineError) -> URL {
    var first = true
    for await event in events {
      defer { first = false }
      switch event {
      case .changed(let snapshot) where first && snapshot.state == .downloaded:
        return try await playbackURL()
      case .changed(let snapshot) where first && snapshot.state == .notDownloaded:
        throw OfflineError(.notQueued, contentID: id)
      case .finished(.success):
        return try await playbackURL()
      case .finished(.failure(let error)):
        throw error
      default:
        continue
      }
    }
    throw OfflineError(.closed, contentID: id)
  }
}

extension OfflineContent {
  /// A content as the index has it at one moment.
  public struct Snapshot: Sendable, Equatable {
    /// The stable id.
    public var id: String
    /// The source URL.
    public var url: URL
    /// A title for people.
    public var title: String?
    /// The app's own data.
    public var metadata: String?
    /// The state.
    public var state: OfflineState
    /// Bytes on disk at the last report.
    public var bytes: Int64
    /// The total, when known or estimated.
    public var total: Int64?
    /// Whether ``total`` is an estimate.
    public var totalIsEstimate: Bool
    /// Why a download is not moving, when it is not.
    public var waitReason: WaitReason?
    /// The last error, as the store kept it: its ``OfflineError/code`` (and
    /// ``OfflineError/httpStatus``) and its sentence (``OfflineError/description``); nil
    /// when the last attempt did not fail.
    public var lastError: OfflineError?
    /// Where the file is (or will be) on disk.
    public var fileURL: URL
    /// The queue priority.
    public var priority: Int
    /// For a downloaded content, what the quick check made when the snapshot was taken
    /// found wrong (missing files, other sizes, files changed since): nil when whole. See
    /// ``ContentDamage``; ``OfflineContent/verify(progress:)`` reads every byte.
    public var damage: ContentDamage? = nil
    /// For a live recording (an HLS stream recorded while it is live), what it holds:
    /// recorded duration and segments, gaps, whether it still records; nil for any other
    /// content.
    public var live: LiveRecordingSummary? = nil
    /// For a downloaded file fetched from several sources (mirrors, a Metalink's URLs, the
    /// duplicates its server named), what each served in its last download and why any
    /// was dropped, the primary first; nil for any other content.
    public var sources: [Transfer.SourceReport]? = nil
  }

  /// What happens to a content, in order: one event per change.
  ///
  /// | call or outcome | events |
  /// |---|---|
  /// | `download()`, `resume()`, `suspend()` | `changed` |
  /// | the download finishes | `changed` (downloaded), `finished(.success)` |
  /// | it fails for good | `changed` (suspended, or notDownloaded when its bytes were discarded, with ``Snapshot/lastError``), `finished(.failure)` |
  /// | it waits (network, storage, a retry), or moves again after a wait | `changed` (``Snapshot/waitReason``) |
  /// | `cancel()` | `changed` (canceling), `changed` (notDownloaded, once its data is deleted), `finished(.failure)` with the code ``OfflineError/Code/canceled`` |
  /// | `deleteOfflineData()` | `changed` (notDownloaded) |
  ///
  /// Bytes arriving are `progress`, which alone may be coalesced for a slow consumer: a
  /// `changed` or a `finished` is never dropped.
  public enum Event: Sendable {
    /// The content as it is after a change of its state, its wait reason or its last error
    /// (also the first event of every stream: where it stands). Its ``Snapshot/damage`` is
    /// what the quick check found when the change was made.
    case changed(Snapshot)
    /// Bytes arrived. Never moves backwards, except after `restarted`.
    case progress(OfflineProgress)
    /// The download started over from its first byte, for this reason (the server sent the
    /// whole file to a resume, the file changed on the server...): the bytes before are gone.
    case restarted(Transfer.RestartReason)
    /// The keys of an HLS stream were fetched again (``OfflineContent/renewKeys()``).
    case keysRenewed(count: Int)
    /// A download attempt ended, once per attempt: the local file or playlist to play
    /// (``OfflineContent/playbackURL(restrictedToAssetCache:)`` with its default), or why
    /// there is none: the error it failed with (the content is then suspended with its
    /// data, or back in notDownloaded when the data was discarded), or `canceled`. A
    /// suspend does not end an attempt; the `resume()` after a failure begins one.
    case finished(Result<URL, OfflineError>)
  }
}
