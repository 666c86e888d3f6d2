import Foundation
import OfflineHTTP
import OfflineLocks
import OfflineStore

/// The offline contents of one store directory: a persistent queue, the state of every
/// content, its events, and the downloads.
///
/// Open one manager per store. Opening recovers from whatever a crash left: a cancel half
/// done is finished, a deletion half done is finished, downloads that were running continue
/// when the queue runs. The queue runs from the first call that asks for work
/// (``OfflineContent/download(_:)``, ``OfflineContent/resume()``, ``add(_:configuration:)``;
/// see ``Configuration/startsWhenAsked``) or ``start()`` until ``stop(suspendingRunning:)``
/// (or during ``runUntilIdle()``), in one process at a time: that process holds the store's
/// runner lock. Other processes (the `offline` CLI, say) may add, pause, resume, cancel and
/// delete at the same time; the runner notices within its poll interval.
///
/// ```swift
/// let manager = try OfflineManager(directory: storeURL)
/// let content = try await manager.content(for: OfflineSource(url: movieURL, title: "Movie"))
/// try await content.download()  // queued, and the manager works its queue
/// print(try await content.waitUntilDownloaded().path)
/// await manager.close()  // ends every event stream; downloads left continue next time
/// ```
public actor OfflineManager {
  /// The store directory.
  public nonisolated let directory: URL
  /// The configuration.
  public nonisolated let configuration: Configuration
  /// Where a damaged index was moved when the manager opened a fresh one, if it did.
  public nonisolated let quarantinedIndex: URL?
  /// What the rebuild from the contents' manifests did when the manager found the index
  /// damaged and made a fresh one, or found it empty beside content folders that have
  /// manifests (an index deleted by hand, a rebuild cut short); nil when it did neither.
  public nonisolated let rebuildReport: RebuildReport?
  nonisolated let index: OfflineIndex
  /// The contents' sessions over the transport, with the cap over every running download
  /// (``Configuration/rateLimit``) that all their requests share.
  nonisolated let sessions: ContentSessions
  nonisolated let hub = EventHub()
  /// The queue's state in this process and the decisions made on it.
  var machine: QueueMachine
  /// The runner lock, loop and nap while this process works the queue.
  var runner = QueueRunner()
  /// Set by ``stopLaunching()`` (from any thread) and ``stop(suspendingRunning:)``: while it
  /// is, ``pump()`` starts nothing.
  nonisolated let launchesStopped = Locked(false)
  /// The Metalinks files' first answers named, read by their downloads before they ended
  /// (``OfflineManager/metalinkPlan(_:outcome:)``), by content id; and the ids re-planned
  /// from one in this process, which never stop at a Metalink again (no loop).
  nonisolated let metalinkReplans = Locked(MetalinkReplans())
  /// Files finished and waiting for one sync to be recorded downloaded together, and the
  /// batches whose syncs run off the actor.
  var commits: GroupCommit
  /// The files of the store's contents, with the `complete` journal records of the queue's
  /// finished files, written with the batch that records them `downloaded`
  /// (``flushFinished()``) instead of a commit each.
  nonisolated let files: ContentFiles
  /// The readers of file contents that download (``OfflineFileReader``), and what their
  /// running downloads show them.
  nonisolated let playbacks = Playbacks<FilePlayback>()
  /// The playbacks of its stream contents: what players wait for while a stream downloads.
  nonisolated let streamPlaybacks = Playbacks<StreamPlayback>()
  /// The playback runs of suspended streams, by content (``startPlaybackRun(_:)``).
  var playbackRuns: [String: Task<Void, Never>] = [:]

  /// Opens the store in `directory`, creating it when needed, and recovers from a crash.
  ///
  /// A damaged index (not a database, or corrupt) is moved aside (``quarantinedIndex``) and
  /// a fresh one rebuilt from the contents' manifests (``rebuildReport``; see
  /// ``rebuildFromManifests()``); so is an empty index beside content folders. Downloaded
  /// files are never deleted.
  ///
  /// - Throws: ``OfflineError`` when the index cannot be opened (locked by another process
  ///   past the timeout, or the directory is not writable).
  public init(directory: URL, configuration: Configuration = Configuration())
    throws(OfflineError)
  {
    self.directory = directory
    self.configuration = configuration
    do {
      let opened = try OfflineIndex.openQuarantiningDamage(directory: directory)
      self.index = opened.index
      self.quarantinedIndex = opened.quarantined
    } catch {
      throw OfflineError(.index(error))
    }
    let opened = index
    let contentFiles = ContentFiles(index: opened, directory: directory)
    if quarantinedIndex != nil {
      rebuildReport = try IndexRebuild(files: contentFiles).run()
    } else if try indexStep({ try opened.contents.isEmpty() }),
      DurableFile.kind(contentFiles.contentFolder.path) == .directory
    {
      // An empty index beside content folders: deleted by hand, or a rebuild cut short.
      let report = try IndexRebuild(files: contentFiles).run()
      rebuildReport = report.restored.isEmpty ? nil : report
    } else {
      rebuildReport = nil
    }
    self.sessions = ContentSessions(
      transport: configuration.transport ?? PlatformTransport.make(),
      queueBudget: RateLimiter(configuration.rateLimit), clock: configuration.clock)
    let completions = CompletionBatch(journal: index.transfers)
    self.files = ContentFiles(index: index, directory: directory, completions: completions)
    self.commits = GroupCommit(
      completions: completions,
      // No gather: the files finishing while one transaction runs go in the next.
      responses: ResponseRecordBatch(journal: index.transfers, gather: .zero))
    self.machine = QueueMachine(parallelDownloads: configuration.parallelDownloads)
    if let lock = RunnerLock(directory: directory) {
      try Recovery(index: index, directory: directory).run()
      ManifestBackfill(files: contentFiles).runIfNeeded()
      _ = lock
    }
  }

  /// The cap over every running download together, nil for none.
  public nonisolated var rateLimit: ByteRate? { sessions.queueBudget.rate }

  /// Changes the cap over every running download together, those under way included: it
  /// applies within a quarter of a second; nil removes it.
  ///
  /// With `keep`, the cap is also kept in the store (`offline limit`): the manager that
  /// works the queue, in this process or another, applies it within its poll interval, as
  /// it applies a pause, and a later one starts with it unless its
  /// ``Configuration/rateLimit`` gives one.
  ///
  /// - Throws: ``OfflineError`` with the code ``OfflineError/Code/index`` when the cap was
  ///   to be kept and the store could not be written; the cap applies here all the same.
  public func setRateLimit(_ rate: ByteRate?, keep: Bool = false) throws(OfflineError) {
    sessions.queueBudget.setRate(rate)
    if keep { try keepRateLimit(rate) }
  }

  /// The content for `source`: the existing one with the source's id (or, without an id,
  /// the first with its URL), else a new one in `notDownloaded`.
  ///
  /// The source's ``OfflineSource/requestOptions`` are kept with the content in the store
  /// (secrets in a file only the user can read), so a later process sends them too. Options
  /// given again replace those kept; the default options (`RequestOptions()`) keep them.
  ///
  /// - Throws: ``OfflineError`` `duplicateID` when the id belongs to another URL,
  ///   `invalidURL` for a URL that is not http or https.
  public func content(for source: OfflineSource) throws(OfflineError) -> OfflineContent {
    try contents(for: [source]).first!
  }

  /// The contents for `sources`, creating the new ones in one transaction (fast for many).
  public func contents(for sources: [OfflineSource]) throws(OfflineError) -> [OfflineContent] {
    var created = Set<String>()
    return try makeContents(for: sources, queueing: nil, created: &created)
  }

  /// Adds `sources` and queues their downloads: new contents are created already in
  /// `downloading`, in one transaction (10,000 at once are fine); existing ones in
  /// `notDownloaded` are queued; the others are left as they are.
  public func add(
    _ sources: [OfflineSource], configuration: DownloadConfiguration = DownloadConfiguration()
  )
    async throws(OfflineError) -> [OfflineContent]
  {
    var created = Set<String>()
    let contents = try makeContents(for: sources, queueing: configuration, created: &created)
    // Those just made are queued already: only the others are read again.
    for content in contents where !created.contains(content.id) {
      guard try snapshot(id: content.id).state == .notDownloaded else { continue }
      try await perform(.download, id: content.id, configuration: configuration)
    }
    startWhenAsked()
    pump()
    return contents
  }

  /// The contents for `sources`; the ids of those it made go into `created`.
  func makeContents(
    for sources: [OfflineSource], queueing configuration: DownloadConfiguration?,
    created: inout Set<String>
  )
    throws(OfflineError) -> [OfflineContent]
  {
    let intake = try ContentIntake.decide(
      sources, known: try knownRecords(for: sources), queueing: configuration,
      storedOptions: configuration?.storedOptions)  // encoded once, not once per source
    let result = intake.ids.map { OfflineContent(id: $0, manager: self) }
    let fresh = intake.fresh
    try keepRequestOptions(of: sources, ids: result.map(\.id))
    try keepPieceChecks(of: sources, ids: result.map(\.id))
    if !fresh.isEmpty {
      let stored: [ContentRecord]
      do {
        stored = try indexStep { try index.contents.insert(fresh) }
      } catch {
        for record in fresh { secrets.remove(id: record.id) }  // kept for records never made
        throw error
      }
      if configuration != nil {
        files.recordQueued(stored)
        for record in stored { announce(record) }  // made and queued: one change each
      }
      created = Set(stored.map(\.id))
    }
    return result
  }

  /// Removes a content in `notDownloaded` from the store altogether.
  public func forget(id: String) throws(OfflineError) {
    let record = try indexStep { try index.contents.record(id: id) }
    guard let record else { throw OfflineError(.unknownContent(id), contentID: id) }
    guard record.state == .notDownloaded, !record.pendingCleanup else {
      throw OfflineError(
        .invalidTransition(.delete, from: record.offlineState), contentID: id)
    }
    try indexStep { try index.contents.remove(id: id) }
    secrets.remove(id: id)
    sessions.forget(id: id)
  }

  /// A new stream of the events of content `id`; see ``OfflineContent/events``.
  nonisolated func events(for id: String) -> OfflineEvents<OfflineContent.Event> {
    let index = self.index
    return hub.subscribe(id: id) { [self] in
      // A content that is gone (forgotten) or cannot be read is an error, never a guess.
      Result { () throws(OfflineError) in
        guard let record = try indexStep({ try index.contents.record(id: id) }) else {
          throw OfflineError(.unknownContent(id), contentID: id)
        }
        return snapshot(of: record)
      }
    }
  }

  /// A new stream of the events of every content, each with its content's id, for one
  /// subscriber (a queue view, say), made at once. It starts with the next event and ends
  /// when the manager closes.
  ///
  /// ```swift
  /// for await (id, event) in manager.allEvents() {
  ///   if case .finished(.failure(let error)) = event { print(id, error) }
  /// }
  /// ```
  public nonisolated func allEvents() -> OfflineEvents<(id: String, event: OfflineContent.Event)> {
    hub.subscribeAll()
  }

  nonisolated func snapshot(of record: ContentRecord) -> OfflineContent.Snapshot {
    snapshot(of: record, pieces: nil)
  }

  /// The snapshot of `record`, with the quick check of its files against `pieces` (nil:
  /// read from the index) when it is downloaded.
  nonisolated func snapshot(of record: ContentRecord, pieces: [PieceRecord]?)
    -> OfflineContent.Snapshot
  {
    var snapshot = OfflineContent.Snapshot(
      id: record.id, url: URL(string: record.url) ?? directory, title: record.title,
      metadata: record.metadata, state: record.offlineState,
      bytes: record.bytes, total: record.total, totalIsEstimate: record.totalIsEstimate,
      waitReason: record.waitReason.map(WaitReason.init),
      lastError: record.lastError.map {
        OfflineError(
          .recorded(codeName: record.lastErrorKind ?? "downloadFailed", message: $0),
          contentID: record.id)
      }, fileURL: fileURL(of: record), priority: record.priority)
    if record.state == .downloaded {
      snapshot.damage = quickCheck(record, pieces: pieces)
      if record.hasSourceReports { snapshot.sources = keptSourceReports(of: record.id) }
    }
    if !record.flatFile {
      snapshot.live = LiveRecordingSummary(
        folder: snapshot.fileURL.deletingLastPathComponent(),
        downloading: record.offlineState == .downloading)
      if snapshot.live != nil, let part = livePart(of: record) {
        snapshot.live?.recordingID = part.recording
        snapshot.live?.part = part.number
      }
    }
    return snapshot
  }

  /// Where the file of `record` lives in the store: `files/<file name>` for a flat file,
  /// else `content/<id>/<file name>`.
  nonisolated func fileURL(of record: ContentRecord) -> URL {
    files.file(of: record)
  }
}

/// Runs an index call, turning its error into an ``OfflineError``.
@discardableResult
func indexStep<T>(_ body: () throws -> T) throws(OfflineError) -> T {
  do {
    return try body()
  } catch let error as StoreError {
    throw OfflineError(.index(error))
  } catch let error as OfflineError {
    throw error
  } catch {
    throw OfflineError(.index(StoreError(code: 1, message: "\(error)", path: "")))
  }
}
