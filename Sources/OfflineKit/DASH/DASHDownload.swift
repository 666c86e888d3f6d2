import DASHManifest
import Foundation
import OfflineHTTP
import OfflineStore

/// Downloads an MPEG-DASH presentation into a folder for offline playback: the chosen
/// Representations of every Period (see ``StreamConfiguration`` for the choice, made per
/// AdaptationSet), each init section and media segment, and an offline MPD, `index.mpd`,
/// with relative names that ffmpeg decodes with the origin gone.
///
/// The engine is the one HLS uses: every segment and init section is its own resumable
/// ``Transfer`` in the journal (adjacent byte ranges of one file merged into one), several at
/// once, each retried in the same run (``StreamConfiguration/pieceRetries``); a rerun after a crash
/// fetches only what is missing; one writer per folder. `index.mpd` is written only when
/// every piece is on disk with its length.
///
/// Several `BaseURL`s are sources of the same pieces (``StreamFailover``), tried in the order
/// an MPD's content steering server gives when it has one (``DASHSteering``).
///
/// A live presentation (`type="dynamic"`) is recorded instead (`DASHLiveRecorder`, issue 41):
/// from the live edge until it ends or is stopped, into the same offline MPD.
///
/// Refused before any segment is fetched, with ``Transfer/Error/Code-swift.struct/invalidMedia``:
/// content protected by a key system (Widevine,
/// PlayReady, any `ContentProtection`: the scheme is named), and a document that is not an
/// MPD or is malformed (the element is named).
///
/// ```swift
/// let download = DASHDownload(
///   folder: folder, journal: index.transfers,
///   session: ContentSession(url: mpdURL, transport: CurlTransport()))
/// let outcome = try await download.run()
/// print(outcome.index.path)  // folder/index.mpd
/// ```
package struct DASHDownload: Sendable {
  /// The manifest's URL.
  public var url: URL { session.url }
  /// The folder the offline copy goes to (the content's folder).
  public internal(set) var folder: URL
  /// What to download: `variant`, `audio` and `subtitles` applied per AdaptationSet.
  public let configuration: StreamConfiguration
  let journal: TransferJournal
  /// How every request of the presentation is made: the manifest and every piece go
  /// through it, with its options, cookies and rate budgets.
  let session: ContentSession
  /// Called before a piece that failed is tried again, from the task that fetches it, once
  /// per retry; nil ignores retries.
  public var onPieceRetry: (@Sendable (PieceRetryPolicy.Retry) -> Void)?
  /// Called once when the presentation turns out to be live and is recorded rather than
  /// downloaded, with the manifest's URL; nil ignores it.
  package var onLiveRecording: (@Sendable (URL) -> Void)?
  /// Told why the MPD's content steering was ignored or its server failed (``DASHSteering``):
  /// a sentence for the log, from the running task; nowhere by default.
  package var log: @Sendable (String) -> Void = { _ in }
  /// Whether to wait while another download writes the same folder; false fails at once with
  /// ``Transfer/Error/Code-swift.struct/destinationBusy``.
  public var waitsForOtherWriter = false
  /// Whether the caller refreshes the manifest's URL when it stops working: then a piece
  /// answered 401, 403 or 410 fails the run at once instead of being tried again, as in
  /// ``HLSDownload/refreshesURL``.
  public var refreshesURL = false
  /// The SHA-256 each piece must have, by its path inside the folder (see
  /// ``StreamDownloading/expectedPieceSHA256``); empty by default.
  public var expectedPieceSHA256: [String: String] = [:]
  /// The stream's players (see ``StreamPlaying``); nil by default.
  var playback: StreamPlayback?
  /// Whether the run fetches only what players ask for (see ``StreamPlaying``).
  var onlyWhatPlayersAsk: Duration?

  /// The offline MPD's name in the folder.
  public static let indexName = "index.mpd"

  /// Creates a download of the presentation at `session`'s URL; nothing happens until
  /// ``run(onProgress:)``. The secrets of the session's options go only to its URL's origin
  /// (or its `secretsOrigin`'s) and its trusted origins, whatever origin the manifest's
  /// `BaseURL` names.
  public init(
    folder: URL, configuration: StreamConfiguration = StreamConfiguration(),
    journal: TransferJournal, session: ContentSession
  ) {
    self.folder = folder
    self.configuration = configuration
    self.journal = journal
    self.session = session
  }

  /// The offline MPD: `index.mpd` in the folder.
  public var indexURL: URL { folder.appending(path: Self.indexName) }

  /// Whether an earlier run finished: the offline MPD is written only then.
  public var isComplete: Bool { FileManager.default.fileExists(atPath: indexURL.path) }

  /// Whether `url` names a DASH manifest (`.mpd`).
  public static func isManifestURL(_ url: URL) -> Bool { url.isDASHManifest }

  /// A folder name for a presentation: the manifest's name, or its folder's when the name
  /// says nothing (`manifest`, `index`, `stream`, `dash`).
  public static func folderName(for url: URL) -> String {
    LocalFileName.streamFolder(
      for: url, genericStems: ["manifest", "index", "stream", "dash", "main", "master"])
  }

  /// Downloads what is missing and writes the offline MPD.
  ///
  /// - Parameter onProgress: called from the running task, about four times a second.
  /// - Throws: ``Transfer/Error``: `invalidMedia` for a live or protected presentation or a
  ///   manifest that is not a valid MPD; the error of the first piece that failed after its
  ///   retries; `canceled` when the task is canceled.
  public func run(onProgress: @escaping @Sendable (OfflineProgress) -> Void = { _ in })
    async throws(Transfer.Error) -> StreamOutcome
  {
    try session.checkOptions(destination: folder.path)
    let lock = try await DestinationLock.acquire(
      folder: folder.path, for: url, waits: waitsForOtherWriter)
    defer { withExtendedLifetime(lock) {} }
    try refuseEndedRecording()
    let (mpd, ignored) = try await fetchManifestNoting()
    if mpd.isLive || isRecordingLive { return try await recordLive(mpd, onProgress: onProgress) }
    let selection = try Self.downloadable(mpd, configuration: configuration, url: url)
    try checkExpansion(of: selection, in: mpd)
    let (steered, steering) = await DASHSteering.steered(
      mpd, ignored: ignored, manifestURL: url, session: session, onNote: log)
    let sources = try await sources(for: selection, in: steered, journal: journal)
    var plan = try DASHPlanner.plan(sources, manifestURL: url)
    plan.warnings = selection.warnings
    plan.duration =
      mpd.mediaPresentationDuration
      ?? mpd.periods.indices.reduce(0) { $0 + (mpd.periodDuration(at: $1) ?? 0) }
    // The folder pinned until `index.mpd` is written: never through a link swapped in.
    let pins = try pinFolder()
    defer { withExtendedLifetime(pins) {} }
    // What the local service reads through while the presentation downloads: every piece
    // of the offline copy is its own file under the name this MPD gives it.
    try writeIndex(mpd, plan, to: folder.appending(path: Self.throughIndexName))
    // What a player restricted to the disk opens before the presentation is complete.
    let growing = GrowingWriter(
      folder: folder, playlists: DASHGrowingManifest(mpd: mpd, plan: plan),
      clock: session.clock, writesAtOnce: onlyWhatPlayersAsk != nil)
    let fetched: PieceRunner.Result
    do {
      var runner = runner(plan.pieces, journal: journal) { growing.didLand($0) }
      if !plan.sourceNames.isEmpty { runner.failover = StreamFailover(names: plan.sourceNames) }
      let reloads = steeringReloads(
        steering, locations: plan.sourceLocations, failover: runner.failover)
      defer { reloads?.cancel() }
      fetched = try await runner.run(onProgress: onProgress)
    } catch {
      growing.flush()  // a suspended or failed presentation plays what is on disk
      throw error
    }
    try checkInPlace(pins)
    try writeIndex(mpd, plan, to: indexURL)
    growing.complete(packed: [:])
    return StreamOutcome(
      index: indexURL, bytes: fetched.bytes, segments: plan.segmentCount,
      initSections: plan.initSectionCount, keys: 0, files: plan.pieces.count,
      duration: plan.duration, warnings: plan.warnings, httpVersion: fetched.httpVersion,
      mostPiecesInFlight: fetched.mostInFlight, sources: fetched.sources)
  }

  /// The piece engine over `pieces` in this download's folder.
  func runner(
    _ pieces: [StreamPiece], journal: TransferJournal,
    onLanding: (@Sendable (PieceLanding) -> Void)? = nil
  ) -> PieceRunner {
    let pieceRetry = PieceRetryPolicy(
      configuration, refreshesURL: refreshesURL, onRetry: onPieceRetry, clock: session.clock)
    var runner = PieceRunner(
      folder: folder, journal: journal, session: session, pieceRetry: pieceRetry,
      concurrency: configuration.pieceConcurrency, pieces: pieces,
      expectedSHA256: expectedPieceSHA256, onLanding: onLanding, playback: playback)
    runner.onlyWhatPlayersAsk = onlyWhatPlayersAsk
    return runner
  }

  /// Opens and pins the download's folder for the run (``ContentFolders/pin(forFiles:in:)``).
  private func pinFolder() throws(Transfer.Error) -> ContentFolders.Pins {
    do {
      return try ContentFolders.pin(forFiles: [String](), in: folder.path)
    } catch {
      throw Transfer.Error(.file(error), url: url, destination: error.path ?? folder.path)
    }
  }

  /// Fails the run when its folder was moved or replaced while it went.
  private func checkInPlace(_ pins: ContentFolders.Pins) throws(Transfer.Error) {
    do {
      try pins.checkInPlace()
    } catch {
      throw Transfer.Error(.file(error), url: url, destination: error.path ?? folder.path)
    }
  }

  /// Writes `index.mpd` atomically: the same Periods, AdaptationSets and Representations
  /// (those chosen), each pointing at its local files.
  /// The MPD of the whole presentation by local names, written when a run starts, which
  /// the local service (`offline serve`) reads through: a segment not on disk yet is fetched
  /// ahead of the queue when a player asks for it. The same text as `index.mpd`, which
  /// is written only once every piece is on disk.
  static let throughIndexName = PlaybackEntryNames.throughManifest

  /// Writes the offline MPD of `plan` at `target`.
  private func writeIndex(_ mpd: MPD, _ plan: DASHPlan, to target: URL) throws(Transfer.Error) {
    let offline: MPD
    do {
      offline = try OfflineManifest.make(from: mpd, files: plan.files)
    } catch {
      throw failure("the offline manifest cannot be made (\(error))")
    }
    let text = MPDWriter.write(offline)
    try AtomicFile.write(
      Data(text.utf8), to: target, mode: ReadableFileMode.mode(for: text), url: url)
  }

  func failure(_ what: String) -> Transfer.Error {
    Transfer.Error(.invalidMedia(what), url: url, destination: folder.path)
  }
}

extension URL {
  /// Whether the URL names an MPEG-DASH manifest (`.mpd`).
  var isDASHManifest: Bool { pathExtension.lowercased() == "mpd" }
}

extension DASHDownload: StreamPlaying {
  /// `index.mpd`.
  package var offlineIndex: URL { indexURL }

  /// Nothing to bring up to date: every version wrote the same `index.mpd`.
  @discardableResult
  package func upgradeOfflineFiles() throws(Transfer.Error) -> Bool { false }
}
