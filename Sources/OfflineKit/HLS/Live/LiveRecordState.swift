import Foundation

/// `live.json` in the folder of a live recording: the recording's ``LiveJournal`` and what
/// the offline playlist needs of each segment asked for, written atomically after every
/// event. A rerun of the same command reads it and goes on into the same folder; the time it
/// was down becomes one ``LiveGap/Reason/notRunning`` gap.
///
/// While it records, the entries of new segments go to `live.log` (``LiveEntryLog``), one
/// line each, and `live.json` keeps the entries it had when the run started, so what is
/// written per event does not grow with the recording; ``read(in:)`` replays the log, and
/// ``compact(in:)`` folds it into `live.json` when the recording stops.
struct LiveRecordState: Sendable, Equatable, Codable {
  /// The file's name in the content's folder.
  static let fileName = "live.json"

  /// One segment asked for: where it goes and how the offline playlist lists it.
  struct Entry: Sendable, Equatable, Codable {
    /// Seconds of media, from its `EXTINF`.
    var duration: Double
    /// Its discontinuity-sequence number in the live playlist.
    var discontinuitySequence: Int
    /// Its path inside the content folder, such as `s000105.ts`.
    var local: String
    /// The path of its init section (`EXT-X-MAP`) inside the content folder, such as
    /// `init0.mp4`; nil for a segment without one.
    var map: String? = nil
    /// The path of its AES-128 key inside the content folder (``HLSKeyNames``); nil for a
    /// clear segment.
    var key: String? = nil
    /// Its initialization vector in hexadecimal, written out in the offline playlist: the
    /// live playlist's, or its media-sequence number (RFC 8216 §5.2), which the offline
    /// playlist's own numbering would not give.
    var iv: String? = nil
    /// The path of the AES-128 key its init section is encrypted with; nil when the
    /// section is clear (or there is none).
    var mapKey: String? = nil
    /// The init section's initialization vector in hexadecimal, as the live playlist gave
    /// it (RFC 8216 §4.3.2.5 requires one for an encrypted section).
    var mapIV: String? = nil
  }

  /// The media playlist recorded (the variant's, under a multivariant playlist).
  var playlistURL: URL
  /// What the recording settled.
  var journal: LiveJournal
  /// The segments asked for, by media-sequence number.
  var entries: [Int: Entry] = [:]
  /// Why it finished; nil while it records (or after a kill).
  var finished: LiveRecording.FinishReason?
  /// The local path of each init section named so far, by its remote URL (and byte range):
  /// one file per distinct `EXT-X-MAP`, fetched once.
  var initSections: [String: String]? = nil
  /// The local path of each key named so far, by its remote URL: fetched once each.
  var keys: [String: String]? = nil

  /// Whether the same command goes on with this recording: it did not finish (a kill), or
  /// the user stopped it (Ctrl-C). A recording that ended (`EXT-X-ENDLIST`, silence) or
  /// reached `--record-for` or `--record-until` is complete.
  var goesOn: Bool { finished == nil || finished == .stopped }

  /// Reads the state in `folder`, the entries of `live.log` replayed over those of
  /// `live.json` unless `replayingLog` is false; nil when there is none (or it cannot be
  /// read).
  /// The state of the recording that speaks for a content's `folder`: its own, or, for a
  /// live stream recorded with separate renditions, its variant's (in `video/`, whose
  /// duration, segments and gaps are the recording's; each rendition keeps its own beside
  /// it). Nil when there is none.
  static func readMain(in folder: URL, replayingLog: Bool = true) -> LiveRecordState? {
    read(in: folder, replayingLog: replayingLog)
      ?? read(
        in: folder.appending(path: HLSDownload.liveVideoFolder, directoryHint: .isDirectory),
        replayingLog: replayingLog)
  }

  static func read(in folder: URL, replayingLog: Bool = true) -> LiveRecordState? {
    guard var state = LiveStateFile.read(LiveRecordState.self, named: fileName, in: folder)
    else { return nil }
    if replayingLog {
      state.entries.merge(LiveEntryLog.entries(in: folder)) { _, logged in logged }
    }
    return state
  }

  /// Writes the whole state into `live.json`, then removes `live.log`, whose entries it
  /// now holds.
  func compact(in folder: URL) throws(Transfer.Error) {
    try write(in: folder)
    LiveEntryLog.remove(in: folder)
  }

  /// Writes the state into `folder` atomically, the user's alone (its URL may be signed);
  /// `live.log` is left as it is.
  func write(in folder: URL) throws(Transfer.Error) {
    try LiveStateFile.write(self, named: Self.fileName, in: folder, url: playlistURL)
  }
}
