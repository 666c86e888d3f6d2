import Foundation
import HLSPlaylist
import OfflineHTTP
import OfflineStore

/// Downloads an HLS stream into a folder for offline playback: the chosen variant and
/// renditions, every segment, init section and key, and offline playlists with relative
/// local URIs that real players play (`index.m3u8`).
///
/// Every segment is its own resumable ``Transfer`` in the journal, so a rerun after a crash
/// fetches only what is missing. A piece that fails is retried in the same run
/// (``StreamConfiguration/pieceRetries``, see ``PieceRetryPolicy``), never skipped: when its retries run
/// out the download fails naming it, and `index.m3u8` is written only when every piece is on
/// disk with its length. KEYFORMATs that cannot be served offline are refused before any segment
/// or key is fetched.
package struct HLSDownload: Sendable {
  /// The stream's playlist URL.
  public var url: URL { session.url }
  /// The folder the offline copy goes to (the content's folder).
  public internal(set) var folder: URL
  /// What to download.
  public let configuration: StreamConfiguration
  /// How every request of the stream is made: playlists, segments, keys, init sections and
  /// renditions all go through it, with its options, cookies and rate budgets.
  let session: ContentSession
  let journal: TransferJournal
  /// Called before a piece that failed is tried again (see ``PieceRetryPolicy``), from the task
  /// that fetches it, once per retry; nil ignores retries.
  public var onPieceRetry: (@Sendable (PieceRetryPolicy.Retry) -> Void)?
  /// Told once, from the running task, when the stream turns out to be live and is
  /// recorded (``StreamConfiguration/live``), with the media playlist recorded; nil tells
  /// nobody.
  public var onLiveRecording: (@Sendable (URL) -> Void)?
  /// Whether to wait while another download of a stream writes the same folder (in this
  /// process or another); false fails at once with ``Transfer/Error/Code-swift.struct/destinationBusy``.
  public var waitsForOtherWriter = false
  /// Whether the caller refreshes the stream's URL when it stops working (a ``URLRefresh``
  /// hook, `get --refresh-command`): then a piece answered 401, 403 or 410 is not tried
  /// again with backoff; the run fails at once with that status, so the refresh comes
  /// first (see ``PieceRetryPolicy/Decision/endForRefresh``). A run with the fresh URL keeps
  /// the pieces on disk. False: such a piece is tried again like any other.
  public var refreshesURL = false
  /// The SHA-256 each piece must have, by its path inside the folder (see
  /// ``StreamDownloading/expectedPieceSHA256``); empty by default.
  public var expectedPieceSHA256: [String: String] = [:]
  /// The stream's players (see ``StreamPlaying``); nil by default.
  var playback: StreamPlayback?
  /// Whether the run fetches only what players ask for (see ``StreamPlaying``).
  var onlyWhatPlayersAsk: Duration?
  /// Where the run tells what it went on without, a line each (a content steering manifest
  /// that did not load, a pathway clone left out); nowhere by default.
  package var log: @Sendable (String) -> Void = { _ in }

  /// Creates a download of the stream at `session`'s URL; nothing happens until
  /// ``run(onProgress:)``.
  ///
  /// - Parameters:
  ///   - folder: The folder the offline copy goes to.
  ///   - configuration: Which variant and renditions, and how many pieces at once.
  ///   - journal: Where each piece's progress is recorded.
  ///   - session: The stream's session: its options (checked when the run starts), cookies,
  ///     rate budgets, the retries inside each piece and the clock piece retries and
  ///     progress ticks read.
  public init(
    folder: URL, configuration: StreamConfiguration = StreamConfiguration(),
    journal: TransferJournal, session: ContentSession
  ) {
    self.folder = folder
    self.configuration = configuration
    self.journal = journal
    self.session = session
  }

  /// The offline playlist: `index.m3u8`, or with `restrictedToAssetCache` false
  /// `index-remote.m3u8`, which keeps what was not downloaded with its remote URLs.
  public func indexURL(restrictedToAssetCache: Bool = true) -> URL {
    folder.appending(path: restrictedToAssetCache ? "index.m3u8" : "index-remote.m3u8")
  }

  /// Whether an earlier run finished: the offline playlist is written only then.
  public var isComplete: Bool {
    FileManager.default.fileExists(atPath: indexURL().path)
      && FileManager.default.fileExists(atPath: folder.appending(path: HLSManifest.fileName).path)
      && !isRecordingLive
  }

  /// Whether `url` names an HLS playlist (`.m3u8` or `.m3u`).
  public static func isPlaylistURL(_ url: URL) -> Bool { url.isHLSPlaylist }

  /// A folder name for a stream: the playlist's name, or its folder's when the name says
  /// nothing (`master`, `index`, `playlist`, `prog_index`).
  public static func folderName(for url: URL) -> String {
    LocalFileName.streamFolder(
      for: url, genericStems: ["master", "index", "playlist", "prog_index", "main"])
  }

  /// Downloads what is missing and writes the offline playlists. A live media playlist (no
  /// `EXT-X-ENDLIST`), alone or as the variant chosen in a multivariant playlist (with its
  /// chosen audio and subtitle renditions beside it), is recorded instead
  /// (``HLSLiveRecorder``), until it ends or stops as ``StreamConfiguration/live`` says.
  ///
  /// - Parameter onProgress: called from the running task, about four times a second, with
  ///   bytes, an estimated total (marked while it is one), segments done and planned, and
  ///   the rate; never backwards, and the fraction below 1 until the last piece is on disk.
  /// - Throws: ``Transfer/Error``: `invalidMedia` for a live stream with keys other than
  ///   AES-128 (not recorded yet), a DRM key, a key that is
  ///   not 16 bytes or a URI that is not http(s); the error of the first segment that failed
  ///   after its retries; `canceled` when the task is canceled.
  public func run(onProgress: @escaping @Sendable (OfflineProgress) -> Void = { _ in })
    async throws(Transfer.Error) -> StreamOutcome
  {
    try session.checkOptions(destination: folder.path)
    // One writer per folder: two runs of one stream would race on its keys and playlists.
    let lock = try await DestinationLock.acquire(
      folder: folder.path, for: url, waits: waitsForOtherWriter)
    defer { withExtendedLifetime(lock) {} }
    try refuseEndedRecording()
    let began = session.clock.instant
    // A steering manifest, when the master names one, orders its pathways first.
    let (entry, steering) = await HLSSteering.steered(
      try await playlist(at: url), from: url, session: session, log: log)
    let variant = try await chosenVariantOrBackup(of: entry)
    switch try await liveSource(entry, variant: variant, loadedAt: began) {
    case .media(let live):
      return try await recordLive(
        live.playlist, at: live.url, loadedAt: live.loadedAt, variables: entry.variables,
        onProgress: onProgress)
    case .renditions(let renditions):
      return try await recordLive(renditions, onProgress: onProgress)
    case nil:
      break
    }
    let plan = try await makePlan(entry, variant: variant)
    let pins = try pinFolders(of: plan)
    defer { withExtendedLifetime(pins) {} }
    try HLSKeyNames.upgrade(folder: folder, entryURL: url)  // keys fetched by an older version
    try HLSManifest(entryURL: url, keys: plan.keys).write(in: folder)
    var keys = keyStore
    keys.expectedSHA256 = expectedPieceSHA256  // a repair's: the keys downloaded, no others
    let keyBytes = try await keys.fetchMissing(plan.keys)
    let offlineFiles = HLSOfflineFiles(folder: folder)
    // What a player opens before the stream is complete (``OfflineContent/playbackURL``).
    let growing = GrowingWriter(
      folder: folder, playlists: HLSGrowingPlaylists(plan: plan), clock: session.clock,
      writesAtOnce: onlyWhatPlayersAsk != nil)
    var runner = PieceRunner(
      folder: folder, journal: journal, session: session, pieceRetry: pieceRetry,
      concurrency: configuration.pieceConcurrency, pieces: plan.pieces,
      packs: configuration.packsSmallSegments, expectedSHA256: expectedPieceSHA256,
      beforeCuttingPacks: { () throws(Transfer.Error) in try offlineFiles.remove(plan) },
      onLanding: { growing.didLand($0) }, playback: playback)
    runner.onlyWhatPlayersAsk = onlyWhatPlayersAsk
    if !plan.sourceNames.isEmpty {
      runner.failover = StreamFailover(names: plan.sourceNames)
    } else if steering != nil, let variant = plan.mediaFiles.first {
      runner.failover = StreamFailover(names: [variant.remoteURL])  // a clone may join it
    }
    let reloads = steeringReloads(steering, entry: entry, plan: plan, failover: runner.failover)
    let fetched: PieceRunner.Result
    do {
      fetched = try await runner.run(onProgress: onProgress)
    } catch {
      reloads?.cancel()
      await reloads?.value
      growing.flush()  // a suspended or failed stream plays what is on disk
      throw error
    }
    reloads?.cancel()  // the pieces are in: no more steering
    await reloads?.value
    do {
      try pins.checkInPlace()  // keys and pieces are where the playlists say
    } catch {
      throw Transfer.Error(.file(error), url: url, destination: error.path ?? folder.path)
    }
    try offlineFiles.write(HLSPackAddressing.addressing(plan, packed: fetched.packed))
    growing.complete(packed: fetched.packed)
    return StreamOutcome(
      index: indexURL(), bytes: fetched.bytes + keyBytes, segments: plan.segmentCount,
      initSections: plan.initSectionCount, keys: plan.keys.count, files: plan.pieces.count,
      duration: plan.duration, warnings: plan.warnings, httpVersion: fetched.httpVersion,
      mostPiecesInFlight: fetched.mostInFlight, sources: fetched.sources)
  }

  /// Fetches the keys again (rotated or expiring key URLs) without touching segments.
  ///
  /// - Returns: How many keys were renewed.
  public func renewKeys() async throws(Transfer.Error) -> Int {
    try upgradeOfflineFiles()
    let manifest = try HLSManifest.read(in: folder, url: url)
    return try await keyStore.fetchAll(manifest.keys)
  }

  /// Brings a folder that an earlier version wrote up to date, so that stock players (ffmpeg,
  /// mpv) play it: keys stored as `keys/k0.key` get names ffmpeg opens, and the offline
  /// playlists point at them (see `HLSKeyNames`), and `offline.json` and the playlists that
  /// name a URL with a query, which an earlier version left readable by others, become the
  /// user's alone (0600). Every step is atomic; the folder plays at each one. Cheap when
  /// there is nothing to do; call it before handing `index.m3u8` to a player.
  ///
  /// - Returns: Whether anything changed.
  /// - Throws: ``Transfer/Error`` with a `file` kind when a file cannot be written.
  @discardableResult
  public func upgradeOfflineFiles() throws(Transfer.Error) -> Bool {
    let renamed = try HLSKeyNames.upgrade(folder: folder, entryURL: url)
    return HLSManifest.restrictModes(in: folder) || renamed
  }

  /// Makes the folders of every file of `plan` (pieces, packs, keys, media playlists) before
  /// any is written, refusing a link where one belongs, and pins them for the run
  /// (``ContentFolders/pin(forFiles:in:)``).
  private func pinFolders(of plan: HLSPlan) throws(Transfer.Error) -> ContentFolders.Pins {
    let files =
      plan.pieces.map(\.local) + plan.pieces.compactMap(\.pack) + plan.keys.map(\.local)
      + plan.mediaFiles.map(\.local)
    do {
      return try ContentFolders.pin(forFiles: files, in: folder.path)
    } catch {
      throw Transfer.Error(.file(error), url: url, destination: error.path ?? folder.path)
    }
  }

  /// How often each piece (media playlist, segment, init section, key) is tried again.
  var pieceRetry: PieceRetryPolicy {
    PieceRetryPolicy(
      configuration, refreshesURL: refreshesURL, onRetry: onPieceRetry, clock: session.clock)
  }

  var keyStore: HLSKeyStore { HLSKeyStore(folder: folder, session: session, retry: pieceRetry) }

  /// Fetches the entry playlist (unless given) and the chosen media playlists (the variant's
  /// unless given, from the URL it was fetched from: a backup's when the variant's failed),
  /// with those of its backups as alternates (see ``chosenVariantOrBackup(of:)``), and plans
  /// the download.
  func makePlan(_ entry: ParsedPlaylist? = nil, variant: FetchedMedia? = nil)
    async throws(Transfer.Error) -> HLSPlan
  {
    let parsed: ParsedPlaylist
    if let entry { parsed = entry } else { parsed = try await playlist(at: url) }
    switch parsed.playlist {
    case .media(let media):
      return try HLSPlanner.plan(
        entryURL: url,
        sources: [HLSPlanner.Source(folder: "", url: url, playlist: media, bandwidth: 2_000_000)],
        master: nil)
    case .master(let master):
      guard let selection = HLSSelection.choose(from: master, options: configuration) else {
        throw failure("the master playlist has no variant")
      }
      var sources: [HLSPlanner.Source] = []
      let candidates = try variantCandidates(master, selection)
      let variantURL: URL
      let variantPlaylist: MediaPlaylist
      if let variant {
        (variantURL, variantPlaylist) = (variant.url, variant.playlist)
      } else {
        let (at, media) = try await firstAnswering(
          candidates.map(\.url), importing: parsed.variables)
        (variantURL, variantPlaylist) = (candidates[at].url, media)
      }
      sources.append(
        HLSPlanner.Source(
          folder: "video", url: variantURL, playlist: variantPlaylist,
          bandwidth: selection.variant.averageBandwidth ?? selection.variant.bandwidth,
          alternates: await alternates(
            candidates.map(\.url).filter { $0 != variantURL }, importing: parsed.variables)))
      let backups = candidates.dropFirst().map(\.variant)
      let chosen = selection.audio + selection.subtitles
      for rendition in chosen {
        guard let uri = rendition.uri,
          let folder = HLSMasterRewriter.folder(for: rendition, among: chosen)
        else { continue }
        let urls =
          [try HLSURI.resolve(uri, against: url, what: "rendition")]
          + (try renditionCandidates(rendition, in: master, backups: backups))
        let (at, media) = try await firstAnswering(urls, importing: parsed.variables)
        sources.append(
          HLSPlanner.Source(
            folder: folder, url: urls[at], playlist: media,
            bandwidth: rendition.type == .audio ? 128_000 : 8_000,
            alternates: await alternates(
              urls.enumerated().filter { $0.offset != at }.map(\.element),
              importing: parsed.variables), rendition: rendition))
      }
      return try HLSPlanner.plan(entryURL: url, sources: sources, master: (master, selection))
    }
  }

  /// The media playlist at `url`, reached through a multivariant playlist that defined
  /// `variables` (for `EXT-X-DEFINE:IMPORT`): a piece, tried again like a segment.
  func mediaPlaylist(at url: URL, importing variables: [String: String])
    async throws(Transfer.Error) -> MediaPlaylist
  {
    let fetched = try await pieceRetry.run(url: url, destination: folder.path) {
      () async throws(Transfer.Error) -> ParsedPlaylist in
      try await playlist(at: url, importing: variables)
    }
    guard case .media(let media) = fetched.playlist else {
      throw failure("\(url.redactedForDisplay) is a master playlist where a media playlist belongs")
    }
    return media
  }

  /// Fetches and parses the playlist at `url` (see ``HLSPlaylistFetch``).
  private func playlist(at url: URL, importing variables: [String: String]? = nil)
    async throws(Transfer.Error) -> ParsedPlaylist
  {
    try await HLSPlaylistFetch(session: session, destination: folder.path)
      .playlist(at: url, importing: variables)
  }

  func failure(_ what: String) -> Transfer.Error {
    Transfer.Error(.invalidMedia(what), url: url, destination: folder.path)
  }
}

extension HLSDownload: StreamPlaying {
  /// `index.m3u8`.
  package var offlineIndex: URL { indexURL() }
}
