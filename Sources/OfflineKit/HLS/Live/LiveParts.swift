import Foundation

/// A live recording split into consecutive parts (`offline get --split`, issue 41 item 5):
/// `part001/`, `part002/`… inside the output folder, each an ordinary live recording's
/// folder (`live.json`, `index.m3u8`) of about ``LiveRecordingOptions/splitEvery`` of
/// media. A part ends by `--record-for` reached (its share), and the next starts at the
/// first media-sequence number the part before did not settle: no segment is lost or
/// recorded twice between two parts, and one that left the window meanwhile is a gap of the
/// new part, never a silent hole.
///
/// Where to go on is read from the parts' states alone, so a rerun after a kill or a stop
/// finds it as the first run left it. A value with no I/O but ``existing(in:)``.
enum LiveParts {
  /// What the parts in a folder say the recording does next.
  enum Next: Sendable, Equatable {
    /// Records into this part: fresh when it has no state, else going on with it.
    case goOn(part: Int)
    /// Starts this new part at this media-sequence number.
    case start(part: Int, at: Int)
    /// The recording is over; this is its last part (0: none).
    case over(last: Int)
  }

  /// The folder of part `index` inside `folder`: `part001`.
  static func folder(_ index: Int, in folder: URL) -> URL {
    folder.appending(path: String(format: "part%03d", index), directoryHint: .isDirectory)
  }

  /// The parts in `folder`, in order, with their states (nil: no `live.json` yet; a part
  /// recorded with renditions speaks by its variant's, ``LiveRecordState/readMain(in:replayingLog:)``).
  static func existing(in folder: URL) -> [(index: Int, state: LiveRecordState?)] {
    indices(in: folder).map { index in
      (index, LiveRecordState.readMain(in: Self.folder(index, in: folder), replayingLog: false))
    }
  }

  /// The indices of the part folders in `folder`, in order.
  static func indices(in folder: URL) -> [Int] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
    return names.compactMap { name -> Int? in
      guard name.hasPrefix("part"), name.count >= 7, let index = Int(name.dropFirst(4)),
        index > 0, name == String(format: "part%03d", index)
      else { return nil }
      return index
    }.sorted()
  }

  /// What comes next after `parts` (as ``existing(in:)`` gives them), with `recordFor` the
  /// whole recording's limit: the first part when there is none; the last part again when
  /// it did not finish (a kill, a stop); a new part after one that reached its share,
  /// unless the whole recording reached `recordFor`; over after any other end
  /// (`EXT-X-ENDLIST`, silence, `--record-until`).
  static func next(after parts: [(index: Int, state: LiveRecordState?)], recordFor: Duration?)
    -> Next
  {
    guard let last = parts.last else { return .goOn(part: 1) }
    guard let state = last.state else { return .goOn(part: last.index) }
    if state.goesOn { return .goOn(part: last.index) }
    guard state.finished == .durationReached, let next = state.journal.nextSequence else {
      return .over(last: last.index)
    }
    if let recordFor, recorded(parts) >= recordFor.inSeconds { return .over(last: last.index) }
    return .start(part: last.index + 1, at: next)
  }

  /// Seconds of media recorded in all `parts`.
  static func recorded(_ parts: [(index: Int, state: LiveRecordState?)]) -> Double {
    parts.reduce(0) { $0 + ($1.state?.journal.recordedSeconds ?? 0) }
  }

  /// The state that makes a new part's recorder start at `sequence`: a journal that begins
  /// there and has settled nothing, which the recorder goes on with as after a kill (what
  /// is still in the window is fetched, what left it is a `notRunning` gap).
  static func seed(startingAt sequence: Int, playlistURL: URL) -> LiveRecordState {
    var journal = LiveJournal()
    journal.firstSequence = sequence
    journal.nextSequence = sequence
    return LiveRecordState(playlistURL: playlistURL, journal: journal)
  }
}
