import Foundation
import OfflineHTTP
import OfflineStore

/// A download of a whole stream into a folder: ``HLSDownload`` (a playlist) and
/// ``DASHDownload`` (an MPD) take the same arguments, piece settings and progress, so code
/// that makes or runs either can be written once.
///
/// The CLI's `get` and the manager's queue each make either kind through one generic
/// function over this protocol.
package protocol StreamDownloading: Sendable {
  /// Creates a download of the stream at `session`'s URL into `folder`; nothing happens
  /// until ``run(onProgress:)``.
  init(
    folder: URL, configuration: StreamConfiguration, journal: TransferJournal,
    session: ContentSession)
  /// Called, on no particular thread, each time a piece is tried again.
  var onPieceRetry: (@Sendable (PieceRetryPolicy.Retry) -> Void)? { get set }
  /// Called once when the stream turns out to be live and is recorded, with the playlist
  /// recorded (``HLSDownload/onLiveRecording``); a kind that records nothing ignores it.
  var onLiveRecording: (@Sendable (URL) -> Void)? { get set }
  /// Where the run tells, a line each and on no particular thread, what it went on without
  /// (a content steering manifest that did not load, an HLS pathway clone left out, a DASH
  /// `ContentSteering` element ignored).
  var log: @Sendable (String) -> Void { get set }
  /// Whether to wait while another download writes the same folder.
  var waitsForOtherWriter: Bool { get set }
  /// Whether the caller refreshes the URL when it stops working (then a 401, 403 or 410
  /// ends the run at once instead of being tried again).
  var refreshesURL: Bool { get set }
  /// The SHA-256 (lowercase hex) each piece (segment, init section, HLS key) must have, by
  /// its path inside the folder: a piece fetched with other bytes is not kept (its file is
  /// left as it was) and the run fails with
  /// ``Transfer/Error/Code-swift.struct/checksumMismatch`` naming its URL; a key on
  /// disk with other bytes is fetched again. A repair passes what the download recorded, so no other version of a
  /// segment is mixed in. Empty by default: pieces are checked against nothing.
  var expectedPieceSHA256: [String: String] { get set }
  /// Whether an earlier run finished: the offline playlist or MPD is written only then.
  var isComplete: Bool { get }
  /// The offline playlist or MPD in the folder (`index.m3u8`, `index.mpd`).
  var offlineIndex: URL { get }
  /// Brings a folder an earlier version wrote up to date, so that stock players play it;
  /// cheap when there is nothing to do. Returns whether anything changed.
  @discardableResult
  func upgradeOfflineFiles() throws(Transfer.Error) -> Bool
  /// Downloads every piece, writes the offline playlist or manifest, and returns what is on
  /// disk; `onProgress` is called as bytes arrive, never backwards.
  func run(onProgress: @escaping @Sendable (OfflineProgress) -> Void)
    async throws(Transfer.Error) -> StreamOutcome
}

/// A stream download that players may read while it runs (``StreamPlayback``).
protocol StreamPlaying: StreamDownloading {
  /// The stream's players: the pieces they ask for are fetched first, and each piece is
  /// shown to them as it lands. Nil by default.
  var playback: StreamPlayback? { get set }
  /// When set, the run fetches only the pieces players ask for and ends with `canceled`
  /// once this long has passed with none in flight or asked for: a content that stays
  /// suspended while a player reads it (``PieceRunner/onlyWhatPlayersAsk``). Nil by default.
  var onlyWhatPlayersAsk: Duration? { get set }
}

extension StreamDownloading {
  /// Nil, and nothing kept: a stream kind that does not record live streams (DASH so far).
  package var onLiveRecording: (@Sendable (URL) -> Void)? {
    get { nil }
    set {}
  }

  /// Creates a download of the stream at `url` into `folder` with a session of its own
  /// (see ``ContentSession/init(url:transport:requestOptions:sharedRateLimiters:retry:retriesUnreachable:clock:)``);
  /// nothing happens until ``run(onProgress:)``.
  package init(
    url: URL, folder: URL, configuration: StreamConfiguration = StreamConfiguration(),
    journal: TransferJournal, transport: any HTTPTransporting, retry: RetryPolicy = RetryPolicy(),
    requestOptions: RequestOptions = RequestOptions(), clock: any Timekeeping = SystemClock.shared
  ) {
    self.init(
      folder: folder, configuration: configuration, journal: journal,
      session: ContentSession(
        url: url, transport: transport, requestOptions: requestOptions, retry: retry,
        clock: clock))
  }
}
