import Foundation
import OfflineHTTP
import OfflineStore

/// One resumable, verified download of one URL into one file.
///
/// Bytes go to `<destination>.part`; the journal (`TransferJournal`, OfflineStore) records what they are
/// (URL, validators, length) before any is written, so a later run — after a crash, Ctrl-C,
/// or a cut connection — resumes with `Range` and `If-Range` instead of starting over, and
/// never appends bytes of a changed file to old ones. When every byte is there the length is
/// checked, and the SHA-256 when one is expected; then the file is synced and renamed into
/// place in one step. A file is never at `destination` unless it is complete.
///
/// ```swift
/// let transfer = try Transfer(url: url, destination: "/data/movie.mp4", store: storeURL)
/// for await event in transfer.events() {
///   if case .progress(let progress) = event { print(progress.fractionCompleted ?? 0) }
/// }
/// ```
///
/// Transient failures (connection lost, stalls, 408, 429, 5xx) are retried with exponential
/// backoff, honouring `Retry-After`; the count of attempts starts over whenever bytes arrive.
/// Cancelling the task stops the download at once, keeping the partial file and its journal.
public struct Transfer: Sendable {
  /// How a transfer behaves.
  public struct Configuration: Sendable, Equatable {
    /// The SHA-256 the file must have, as 64 lowercase hex digits; nil to check only the
    /// length. Set by ``init(expectedSHA256:computesSHA256:retry:checkpointInterval:progressInterval:replacesExistingFile:syncsEachFile:connections:waitsForOtherWriter:)``,
    /// which refuses anything else.
    public private(set) var expectedSHA256: String?
    /// Computes the SHA-256 even when none is expected (it is then in the outcome).
    public var computesSHA256: Bool
    /// When transient failures are tried again; `retry.maximumAttempts` 1 never retries.
    public var retry: RetryPolicy
    /// How often received bytes are synced to disk and recorded as durable.
    public var checkpointInterval: Duration
    /// How often progress events are sent while bytes arrive.
    public var progressInterval: Duration
    /// Whether a file already at the destination that OfflineKit did not download may be
    /// replaced.
    public var replacesExistingFile: Bool
    /// Only these bytes of the resource, when set (an HLS byte-range segment, say): the file
    /// holds exactly `slice.length` bytes, from the resource's byte `slice.offset` on.
    package var slice: Slice?
    /// Connections for one file (see ``Connections``); slices and servers without ranges
    /// always get one.
    public var connections: Connections
    /// Whether to wait while another download writes the same destination (in this process
    /// or another); false fails at once with ``Error/Code-swift.struct/destinationBusy``.
    public var waitsForOtherWriter: Bool
    /// Whether the file is fsynced before it is renamed into place. An owner that syncs many
    /// files at once afterwards (`syncfs`) turns it off; a file finished that way counts as
    /// complete only within the same boot.
    public var syncsEachFile: Bool
    /// Whether a transfer that computes the SHA-256 also computes one per 4 MiB chunk
    /// (``Outcome/chunkSHA256``), as the bytes stream, so damage found later can be mended
    /// chunk by chunk. Slices never do.
    public var hashesChunks = true
    /// The most connections one file is fetched over when more still raise the speed (an
    /// origin that caps each connection): a segmented download opens four more at a time
    /// while the last four each brought at least half an average connection's speed
    /// (`RangeConcurrency`). With ``Connections/fixed(_:)`` a larger value lets the count
    /// grow from the fixed one, nil keeps it fixed; ``Connections/adaptive`` grows from eight
    /// to this, or to 16 when nil, and starts with at most this many.
    public var maximumConnections: Int?
    /// The clock retries, `Retry-After` dates, progress and checkpoint intervals read and
    /// sleep on (the system's by default). Two configurations are equal only with the same
    /// clock instance: clocks compare by identity.
    public var clock: any Timekeeping {
      get { timekeeper.clock }
      set { timekeeper = ClockIdentity(newValue) }
    }
    private var timekeeper = ClockIdentity(SystemClock.shared)
    /// The readers of the file while it downloads, for a file of the manager's queue: what
    /// they want is fetched first, and they hear when bytes land (nil: none can come).
    var playback: FilePlayback?
    /// Whether a player waits for these bytes: its requests take the whole of a shared rate
    /// cap while they run (``OfflineHTTP/HTTPRequest/hasRatePriority``). A stream's piece a
    /// player asked for.
    var hasRatePriority = false
    /// When set, the file is fetched only where its readers (``playback``) ask, over
    /// connections of their own, and the run ends with `canceled` once this long passes with
    /// none of them running and nothing asked for: a suspended content a player reads. What
    /// they fetched stays in the part and the journal as ranges, for the download that
    /// resumes (``Transfer/runForReaders(idle:onEvent:lock:)``).
    var onlyWhatReadersAsk: Duration?
    /// Other http or https URLs serving the same file. Each is asked for the file's first
    /// byte before any of its bytes are used and dropped (see ``Transfer/SourceReport``)
    /// when its length differs or it serves no ranges; the others share the ranges by
    /// measured speed.
    /// A file under 8 MiB, or an origin without ranges, is fetched from the URL alone.
    public var mirrors: [URL] = []
    /// The SHA-256 of each piece of the file (a Metalink's): over ranges, each piece is
    /// checked as soon as all its bytes are written, and a bad one is fetched again alone
    /// from another source while the rest downloads, its source penalised; the verified
    /// pieces are journalled, so a resume neither fetches nor checks them again. Nil checks
    /// the whole file only.
    package var pieces: PieceChecks?
    /// The file's length as a description gave it (a Metalink's); a primary that tells
    /// another fails the download with `lengthMismatch` before any byte is written.
    package var expectedLength: Int64?
    /// Whether a first answer that is a Metalink (by its `Content-Type`) or names one (RFC
    /// 6249 `Link: rel=describedby`) stops the transfer before any byte is written, with
    /// `describedByMetalink` (`offline get` of a plain URL then downloads what it describes).
    package var stopsAtMetalink = false
    /// Nearby `offline serve`s asked for the file by its URL before the origin
    /// (`http://host:8380/?token=…`, see `PeerLookup`): a peer that holds it downloaded is
    /// a mirror preferred to the origin while it is usable, its bytes checked like any
    /// mirror's; one that is down or holds nothing leaves the file to the origin (a peer
    /// that is down is told as a dropped source, never a failure).
    package var peers: [URL] = []

    /// Creates options with the defaults, checking only the length.
    public init(
      computesSHA256: Bool = false,
      retry: RetryPolicy = RetryPolicy(
        initialDelay: .milliseconds(500), maximumDelay: .seconds(30)),
      checkpointInterval: Duration = .seconds(1), progressInterval: Duration = .milliseconds(250),
      replacesExistingFile: Bool = false, syncsEachFile: Bool = true,
      connections: Connections = .single, waitsForOtherWriter: Bool = false
    ) {
      self.computesSHA256 = computesSHA256
      self.retry = retry
      self.checkpointInterval = checkpointInterval
      self.progressInterval = progressInterval
      self.replacesExistingFile = replacesExistingFile
      self.syncsEachFile = syncsEachFile
      self.connections = connections.normalized
      self.waitsForOtherWriter = waitsForOtherWriter
    }

    /// Creates options that also check the file's SHA-256 (nil: the length only).
    ///
    /// - Throws: ``OfflineError`` (`invalidChecksum`) when `expectedSHA256` is not 64
    ///   hexadecimal digits: a checksum that can never match is refused now, not after the
    ///   download.
    public init(
      expectedSHA256: String?, computesSHA256: Bool = false,
      retry: RetryPolicy = RetryPolicy(
        initialDelay: .milliseconds(500), maximumDelay: .seconds(30)),
      checkpointInterval: Duration = .seconds(1), progressInterval: Duration = .milliseconds(250),
      replacesExistingFile: Bool = false, syncsEachFile: Bool = true,
      connections: Connections = .single, waitsForOtherWriter: Bool = false
    ) throws(OfflineError) {
      self.init(
        computesSHA256: computesSHA256, retry: retry, checkpointInterval: checkpointInterval,
        progressInterval: progressInterval, replacesExistingFile: replacesExistingFile,
        syncsEachFile: syncsEachFile, connections: connections,
        waitsForOtherWriter: waitsForOtherWriter)
      self.expectedSHA256 = try SHA256.checkedHex(expectedSHA256)
    }

    /// These options checking `sha256`, which the index holds checked already (a transfer
    /// still refuses one that is not 64 hex digits, with ``Error/Code-swift.struct/invalidChecksum``).
    func expecting(sha256: String?) -> Configuration {
      var configuration = self
      configuration.expectedSHA256 = sha256?.lowercased()
      return configuration
    }
  }

  /// A byte range of a resource: `length` bytes from `offset` on.
  package struct Slice: Sendable, Equatable, Hashable {
    /// The first byte, counted from 0.
    public var offset: Int64
    /// How many bytes.
    public var length: Int64

    /// Creates a slice.
    public init(offset: Int64, length: Int64) {
      self.offset = offset
      self.length = length
    }
  }

  /// What is downloaded.
  public let url: URL
  /// The absolute path of the final file.
  public let destination: String
  /// The behaviour.
  public let configuration: Configuration
  /// How every request of the transfer is made (headers, cookies, credentials…).
  public var requestOptions: RequestOptions { session.requestOptions }
  /// The content's session: every request of the transfer (its ranges and retries) goes
  /// through it, with the content's options, cookies and rate budgets.
  let session: ContentSession
  let journal: TransferJournal
  /// The session's transport.
  var transport: any HTTPTransporting { session.transport }

  /// What the transfer is part of (on its own, a queued file, a stream's piece).
  let role: Role

  /// The file bytes are written into until the download is complete.
  public var partPath: String { destination + ".part" }

  /// Creates a transfer of one file, without a queue; nothing happens until
  /// ``run()`` or ``events()``.
  ///
  /// ```swift
  /// let transfer = try Transfer(
  ///   url: URL(string: "https://example.com/movie.mp4")!, destination: "/data/movie.mp4",
  ///   store: storeURL)
  /// let outcome = try await transfer.run()
  /// ```
  ///
  /// - Parameters:
  ///   - url: What is downloaded.
  ///   - destination: The absolute path of the final file.
  ///   - store: The folder whose index journals the download (made when missing; an
  ///     ``OfflineManager``'s store folder will do), so a later run, after a pause or a
  ///     crash, resumes it.
  ///   - transport: The HTTP transport; nil for the platform's (libcurl on Linux,
  ///     URLSession on Apple platforms).
  ///   - configuration: The behaviour (checksum, retries, connections).
  ///   - requestOptions: What every request sends (headers, cookies, credentials, proxy,
  ///     rate limit); checked when the run starts.
  /// - Throws: ``Transfer/Error`` with the code ``Error/Code-swift.struct/index`` when the
  ///   store's index cannot be opened.
  public init(
    url: URL, destination: String, store: URL, transport: (any HTTPTransporting)? = nil,
    configuration: Configuration = Configuration(),
    requestOptions: RequestOptions = RequestOptions()
  ) throws(Transfer.Error) {
    let index: OfflineIndex
    do {
      index = try OfflineIndex(directory: store)
    } catch {
      throw Transfer.Error(.index(error), url: url, destination: destination)
    }
    self.init(
      url: url, destination: destination, journal: index.transfers,
      session: ContentSession(
        url: url, transport: transport ?? PlatformTransport.make(),
        requestOptions: requestOptions, clock: configuration.clock),
      configuration: configuration)
  }

  /// Creates a transfer journaled in `journal` whose requests go through `session` (the
  /// content's: a queued file's, a stream piece's); nothing happens until ``run(onEvent:)``.
  ///
  /// - Parameters:
  ///   - url: What is downloaded (the session's URL, or a piece of its content).
  ///   - destination: The absolute path of the final file.
  ///   - journal: Where the download is recorded, so a later run resumes it.
  ///   - session: The content's session; its options are checked when the run starts.
  ///   - configuration: The behaviour (checksum, retries, connections).
  package init(
    url: URL, destination: String, journal: TransferJournal, session: ContentSession,
    configuration: Configuration = Configuration()
  ) {
    self.init(
      url: url, destination: destination, journal: journal, session: session,
      configuration: configuration, role: .standalone)
  }

  /// Creates a transfer that is part of something (see ``Role``).
  init(
    url: URL, destination: String, journal: TransferJournal, session: ContentSession,
    configuration: Configuration, role: Role
  ) {
    self.url = url
    self.destination = destination
    self.journal = journal
    self.session = session
    self.configuration = configuration
    self.role = role
  }

  /// Creates a transfer journaled in `journal`, with a session of its own over `transport`;
  /// nothing happens until ``run(onEvent:)``.
  ///
  /// - Parameters:
  ///   - requestOptions: What every request sends (see `RequestOptions`); checked when the
  ///     run starts. Its `rateLimit` caps this transfer.
  package init(
    url: URL, destination: String, journal: TransferJournal, transport: any HTTPTransporting,
    configuration: Configuration = Configuration(),
    requestOptions: RequestOptions = RequestOptions()
  ) {
    self.init(
      url: url, destination: destination, journal: journal,
      session: ContentSession(
        url: url, transport: transport, requestOptions: requestOptions,
        clock: configuration.clock),
      configuration: configuration)
  }

  /// A request for the transfer's URL with the content's options, cookies and budgets.
  func request() -> HTTPRequest {
    var request = session.request(url)
    request.hasRatePriority = configuration.hasRatePriority
    return request
  }

  /// Downloads until the file is complete and verified, resuming what an earlier run left.
  ///
  /// Only one transfer writes a destination at a time, across processes and stores: while
  /// another holds it, this one fails at once with ``Error/Code-swift.struct/destinationBusy``, or
  /// waits when ``Configuration/waitsForOtherWriter`` is set.
  ///
  /// - Returns: the outcome; `wasAlreadyComplete` is set when the file was already complete
  ///   and verified and nothing was downloaded.
  /// - Throws: ``Error``; the partial file and its journal are kept unless the error says
  ///   otherwise (a checksum mismatch drops them).
  public func run() async throws(Transfer.Error) -> Outcome {
    try await run(onEvent: { _ in })
  }

  /// ``run()``, telling `onEvent`, on the running task, each ``Event`` in order: the
  /// package's own detail (requests, retries, the check), from which ``events()`` keeps
  /// what a content's events say.
  package func run(onEvent: @escaping @Sendable (Event) -> Void)
    async throws(Transfer.Error) -> Outcome
  {
    if let expected = configuration.expectedSHA256, !SHA256.isValidHex(expected) {
      throw failure(.invalidChecksum(expected))
    }
    if let mirror = configuration.mirrors.first(where: { !$0.isHTTPWithHost }) {
      throw failure(.invalidMirror(mirror.redactedForDisplay))
    }
    try session.checkOptions(destination: destination)
    // A name of OfflineKit's own in a folder the caller holds locked needs no lock of its
    // own, nor a look at what is there: its part is created when its first bytes are
    // written, or not at all when the run finds it complete.
    if destinationIsInLockedFolder { return try await runSingle(onEvent: onEvent) }
    try checkDestinationKind()
    let lock = try await DestinationLock.acquire(
      for: self, waits: configuration.waitsForOtherWriter)
    let outcome: Outcome
    do {
      outcome = try await runLocked(onEvent: onEvent, lock: lock)
    } catch {
      lock.release()
      throw error
    }
    // A download that did not find its file complete renamed the locked part onto the
    // destination: nothing of the lock's is left at the part's path for `release` to remove,
    // and looking cost each piece of a stream two stats of a missing path.
    if outcome.wasAlreadyComplete { lock.release() }
    return outcome
  }

  /// ``run(onEvent:)`` once this transfer is the destination's one writer.
  private func runLocked(
    onEvent: @escaping @Sendable (Event) -> Void, lock: DestinationLock
  ) async throws(Transfer.Error) -> Outcome {
    guard configuration.slice == nil else {
      return try await runSingle(onEvent: onEvent, lock: lock)
    }
    if let idle = configuration.onlyWhatReadersAsk {
      return try await runForReaders(idle: idle, onEvent: onEvent, lock: lock)
    }
    // A file found complete asks no peer: nothing is fetched.
    if !configuration.peers.isEmpty, let outcome = try completedEarlier(onEvent: onEvent) {
      return outcome
    }
    let peers = await askPeers(onEvent: onEvent)
    if !configuration.mirrors.isEmpty || !peers.isEmpty {
      // Several sources: ranges from each, however few connections were asked for.
      var count = Self.connectionsWithMirrors
      if case .fixed(let fixed) = configuration.connections { count = max(count, fixed) }
      // Grows as an adaptive download does, while more connections raise the speed.
      var segmented = SegmentedTransfer(
        transfer: self, connections: count,
        maximumConnections: configuration.maximumConnections
          ?? AdaptiveTransfer.maximumConnections)
      segmented.peers = peers
      return try await segmented.run(onEvent: onEvent)
    }
    switch configuration.connections {
    case .fixed(let count) where count > 1:
      return try await SegmentedTransfer(
        transfer: self, connections: count,
        maximumConnections: configuration.maximumConnections
      ).run(onEvent: onEvent)
    case .adaptive:
      return try await AdaptiveTransfer(transfer: self).run(onEvent: onEvent, lock: lock)
    default:
      return try await runSingle(onEvent: onEvent, lock: lock)
    }
  }

  /// Connections at the start of a download with mirrors (``Configuration/mirrors``).
  static let connectionsWithMirrors = 8

  /// The download over one connection. With the `lock` just taken, the first attempt writes
  /// through the part it holds open (its folder made, the part opened once); a retry opens
  /// the part again by its path, as an attempt without the lock does.
  ///
  /// Its readers (``Configuration/playback``) see the part's length as the bytes on disk,
  /// and their wants go to `onDemand` (nil: one connection cannot fetch out of order).
  func runSingle(
    onEvent: @escaping @Sendable (Event) -> Void, lock: DestinationLock? = nil,
    onDemand: (@Sendable () -> Void)? = nil
  ) async throws(Transfer.Error) -> Outcome {
    configuration.playback?.attach(.part(path: partPath), onDemand: onDemand)
    do {
      let outcome = try await runSingleAttempts(onEvent: onEvent, lock: lock)
      // Whole at its destination, though its journal may still say otherwise until the
      // manager's batch records it.
      configuration.playback?.didComplete(length: outcome.length)
      return outcome
    } catch {
      configuration.playback?.detach()
      throw error
    }
  }

  /// ``runSingle(onEvent:lock:onDemand:)``'s attempts.
  private func runSingleAttempts(
    onEvent: @escaping @Sendable (Event) -> Void, lock: DestinationLock?
  ) async throws(Transfer.Error) -> Outcome {
    let earlier = try checkEarlierRun(onEvent: onEvent)
    if let outcome = earlier.outcome { return outcome }
    // The first attempt starts from the record just read; later ones read it again.
    var known: TransferRecord?? = .some(earlier.record)
    var failedAttempts = 0
    var receivedTotal: Int64 = 0
    var restarts = 0
    while true {
      var received: Int64 = 0
      defer { known = nil }
      do {
        var outcome = try await attempt(
          onEvent: onEvent, received: &received, restarts: &restarts, record: known,
          lock: known == nil ? nil : lock)
        outcome.bytesReceived = receivedTotal + received
        return outcome
      } catch {
        receivedTotal += received
        guard error.isTransient, !Task.isCancelled else { throw abandoning(error) }
        failedAttempts = received > 0 ? 1 : failedAttempts + 1
        guard failedAttempts < configuration.retry.maximumAttempts else { throw abandoning(error) }
        let delay = retryDelay(after: failedAttempts, error: error)
        onEvent(.retrying(attempt: failedAttempts, delay: delay, error: error))
        do {
          try await configuration.clock.sleep(for: delay)
        } catch {
          throw abandoning(failure(.canceled))
        }
      }
    }
  }

  /// Leaves no trace of a transfer that ends without a byte on disk (a refused redirect, a
  /// 404): the empty part file and its journal entry are removed. Partial data is kept.
  private func abandoning(_ error: Error) -> Error {
    guard FileSteps.regularFileSize(partPath) == 0 else { return error }
    FileSteps.unlink(partPath)
    if let record = try? journal.record(forDestination: destination), record.phase == .active {
      try? journal.remove(destination: destination)
    }
    return error
  }

  func failure(_ kind: Error.Kind) -> Error {
    Error(kind, url: url, destination: destination)
  }

  private func retryDelay(after attempt: Int, error: Error) -> Duration {
    configuration.retry.delay(afterFailures: attempt, retryAfter: error.retryAfter)
  }

}
