import Foundation
import OfflineHTTP
import OfflineStore

/// One content's download, whatever its kind: a file through one ``Transfer``, an HLS
/// playlist or a DASH manifest through the piece engine into a folder.
///
/// The manager's queue runs each content's download through it and `offline get` runs one,
/// so the dispatch by kind, the one progress type, the URL refresh with its limit, the
/// journal carried over to a fresh URL and the free-space check are the same code for both.
package struct ContentDownload: Sendable {
  /// What a URL names.
  package enum Kind: Sendable, Equatable {
    /// A file (anything that is not a playlist or a manifest).
    case file
    /// An HLS playlist (`.m3u8`, `.m3u`).
    case hls
    /// A DASH manifest (`.mpd`).
    case dash

    /// The kind `url` names, by its path's extension.
    package init(_ url: URL) {
      self = url.isHLSPlaylist ? .hls : url.isDASHManifest ? .dash : .file
    }

    /// Whether it is a stream (HLS or DASH), downloaded into a folder.
    package var isStream: Bool { self != .file }
  }

  /// What a running download reports, in order, on the task that runs it.
  package enum Event: Sendable {
    /// Bytes arrived (a file's or a stream's: one progress type); never backwards.
    case progress(OfflineProgress)
    /// A file started over from its first byte, for this reason.
    case restarted(Transfer.RestartReason)
    /// A file's other detail: a request sent, a retry coming, the check of its bytes.
    case detail(Transfer.Event)
    /// A piece of a stream failed and is tried again.
    case pieceRetry(PieceRetryPolicy.Retry)
    /// The stream is live and is recorded (issue 41): told once, before its first segment,
    /// with the media playlist recorded.
    case recordingLive(URL)
  }

  /// How a download ended well.
  package enum Outcome: Sendable {
    /// A file, complete and checked.
    case file(Transfer.Outcome)
    /// A stream, every piece on disk and its offline playlist or MPD written.
    case stream(StreamOutcome)
  }

  /// What the URL names.
  package let kind: Kind
  /// The content's session; its URL is the one downloaded.
  package let session: ContentSession
  /// Where the download is journaled.
  package let journal: TransferJournal
  /// The final file's absolute path, or a stream's folder.
  package let destination: String
  /// How a file is downloaded (checksum, retries, connections, writer wait); a stream
  /// takes its writer wait from it.
  package let file: Transfer.Configuration
  /// How a stream is downloaded (renditions, pieces at once, piece retries).
  package let stream: StreamConfiguration
  /// Whether a refresh of the URL follows a refusal (401, 403, 410): then a stream's piece
  /// so answered ends the attempt at once rather than being tried again.
  package let refreshesURL: Bool
  /// The SHA-256 each piece of a stream must have, by its path in the folder (a repair's).
  package let expectedPieceSHA256: [String: String]
  /// How a queued file's records are written (see ``Transfer/QueuedFile``); nil for a
  /// download on its own.
  let queuedFile: Transfer.QueuedFile?
  /// The players of a queued stream (``StreamPlayback``), which its pieces are shown to and
  /// which may ask for pieces first; nil for a download on its own.
  let streamPlayback: StreamPlayback?
  /// When set, the run fetches only what players ask for (a suspended content a player
  /// reads), ending with `canceled` once this long passes with nothing asked for: a
  /// stream's pieces (``StreamPlaying/onlyWhatPlayersAsk``), a file's ranges
  /// (``Transfer/Configuration/onlyWhatReadersAsk``, set in ``file``).
  let onlyWhatPlayersAsk: Duration?
  /// Told, from the running task, a sentence for the log about a stream's sources (a DASH
  /// MPD's content steering that was ignored or failed, ``DASHDownload/onSteeringNote``);
  /// nil ignores them.
  package var onSourceNote: (@Sendable (String) -> Void)?

  /// Creates a download on its own (`offline get`); nothing happens until ``run(onEvent:)``.
  package init(
    kind: Kind, session: ContentSession, journal: TransferJournal, destination: String,
    file: Transfer.Configuration = Transfer.Configuration(),
    stream: StreamConfiguration = StreamConfiguration(), refreshesURL: Bool = false
  ) {
    self.init(
      kind: kind, session: session, journal: journal, destination: destination, file: file,
      stream: stream, refreshesURL: refreshesURL, expectedPieceSHA256: [:], queuedFile: nil,
      streamPlayback: nil, onlyWhatPlayersAsk: nil)
  }

  /// Creates a download; with `queuedFile` a queued one.
  init(
    kind: Kind, session: ContentSession, journal: TransferJournal, destination: String,
    file: Transfer.Configuration, stream: StreamConfiguration, refreshesURL: Bool,
    expectedPieceSHA256: [String: String], queuedFile: Transfer.QueuedFile?,
    streamPlayback: StreamPlayback?, onlyWhatPlayersAsk: Duration?
  ) {
    self.kind = kind
    self.session = session
    self.journal = journal
    self.destination = destination
    var file = file
    if kind == .file { file.onlyWhatReadersAsk = onlyWhatPlayersAsk }
    self.file = file
    self.onlyWhatPlayersAsk = onlyWhatPlayersAsk
    self.stream = stream
    self.refreshesURL = refreshesURL
    self.expectedPieceSHA256 = expectedPieceSHA256
    self.queuedFile = queuedFile
    self.streamPlayback = streamPlayback
  }

  /// The URL downloaded.
  package var url: URL { session.url }

  /// Downloads what is missing, telling `onEvent` as it goes.
  ///
  /// - Throws: ``Transfer/Error``: the file's, or the stream's (its first piece that failed
  ///   after its retries, a playlist or manifest that cannot be read, `canceled`).
  package func run(onEvent: @escaping @Sendable (Event) -> Void)
    async throws(Transfer.Error) -> Outcome
  {
    switch kind {
    case .file: return .file(try await runFile(onEvent: onEvent))
    case .hls: return try await runStream(HLSDownload.self, onEvent: onEvent)
    case .dash:
      var download = streamDownload(DASHDownload.self, onEvent: onEvent)
      download.onSteeringNote = onSourceNote
      return .stream(try await download.run { onEvent(.progress($0)) })
    }
  }

  private func runFile(onEvent: @escaping @Sendable (Event) -> Void)
    async throws(Transfer.Error) -> Transfer.Outcome
  {
    let transfer = Transfer(
      url: url, destination: destination, journal: journal, session: session,
      configuration: file,
      // A playback run's file (one that stays paused) records its own end: no queue's batch
      // will commit it.
      role: onlyWhatPlayersAsk == nil
        ? queuedFile.map { .queuedFile($0) } ?? .standalone : .standalone)
    // Its readers, if any, hear of bytes at each progress update too: one connection
    // tells nobody of its writes.
    let playback = file.playback
    return try await transfer.run { event in
      switch event {
      case .progress(let progress):
        playback?.didLand()
        onEvent(.progress(progress))
      case .restarted(let reason):
        playback?.didRestart()
        onEvent(.restarted(reason))
      default: onEvent(.detail(event))
      }
    }
  }

  /// The stream in ``destination``, as `Stream` downloads it.
  func streamDownload<Stream: StreamPlaying>(
    _ kind: Stream.Type, onEvent: @escaping @Sendable (Event) -> Void
  ) -> Stream {
    var download = Stream(
      folder: URL(fileURLWithPath: destination, isDirectory: true), configuration: stream,
      journal: journal,
      session: session)
    download.onPieceRetry = { onEvent(.pieceRetry($0)) }
    download.onLiveRecording = { onEvent(.recordingLive($0)) }
    download.waitsForOtherWriter = file.waitsForOtherWriter
    download.refreshesURL = refreshesURL
    download.expectedPieceSHA256 = expectedPieceSHA256
    download.playback = streamPlayback
    download.onlyWhatPlayersAsk = onlyWhatPlayersAsk
    return download
  }

  private func runStream<Stream: StreamPlaying>(
    _ kind: Stream.Type, onEvent: @escaping @Sendable (Event) -> Void
  ) async throws(Transfer.Error) -> Outcome {
    .stream(try await streamDownload(kind, onEvent: onEvent).run { onEvent(.progress($0)) })
  }

  /// The offline playlist or MPD of a stream an earlier run finished, brought up to date
  /// (keys named by an older version); nil for a file, or a stream with work left.
  ///
  /// - Throws: ``Transfer/Error`` with a `file` kind when the folder cannot be upgraded.
  package func finishedEarlier() throws(Transfer.Error) -> URL? {
    switch kind {
    case .file: return nil
    case .hls: return try finishedEarlier(streamDownload(HLSDownload.self, onEvent: { _ in }))
    case .dash: return try finishedEarlier(streamDownload(DASHDownload.self, onEvent: { _ in }))
    }
  }

  private func finishedEarlier(_ download: some StreamDownloading) throws(Transfer.Error) -> URL? {
    guard download.isComplete else { return nil }
    try download.upgradeOfflineFiles()
    return download.offlineIndex
  }
}
