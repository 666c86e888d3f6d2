import Foundation

/// Writes a live DASH recording's state after each event that changed it, so that what one
/// event costs does not grow with the recording (issue 41): the segments the caller says
/// were set since the last write go to `live-dash.log` (``DASHLiveState/log``, fsynced)
/// first, then `live-dash.json` is written with the journals and no segment, and its
/// summary. It compares no segment and keeps none: the caller (``DASHLiveRun/unsaved``)
/// hands it what changed, so a write reads only those.
///
/// The log holds every segment of its generation: a run that goes on with a
/// `live-dash.json` holding segments (one written whole when a recording stopped, or before
/// the log existed) moves them into a log of a new generation at its first write, once.
/// When the recording finishes the log is folded into `live-dash.json` (the whole state
/// written atomically and durably under a new generation), then removed.
///
/// A kill at any moment leaves a state that ``DASHLiveState/read(in:replayingLog:)`` reads
/// whole up to the last event written: the log is appended before `live-dash.json` names
/// the numbers it holds, a torn last line is skipped, `live-dash.json` is replaced
/// atomically, and the lines of a log that `live-dash.json` does not name (a kill before a
/// fold removed it, or before a new generation was named) are not replayed.
struct DASHLiveStateWriter {
  /// A segment set since the last write: number `number` of the track at index `track` of
  /// the state's tracks.
  struct Change: Hashable, Sendable {
    var track: Int
    var number: Int
  }

  /// What one write puts on disk, decided without I/O (``plan(_:changed:)``).
  enum Plan: Equatable {
    /// The whole state into `live-dash.json`, the log removed: the recording finished.
    case whole
    /// `lines` appended to the log of `generation` (a log of a new generation when `fresh`,
    /// the old one removed first), then `live-dash.json` without segments.
    case append(generation: UInt64, lines: [DASHLiveState.LogLine], fresh: Bool)
  }

  let folder: URL
  /// The log generation `live-dash.json` names while it holds no segment; nil before this
  /// writer wrote one.
  private var generation: UInt64?

  /// A writer for the recording in `folder`, which goes on with the state on disk when
  /// `resuming` (its log's generation), else starts afresh.
  init(folder: URL, resuming: Bool) {
    self.folder = folder
    guard resuming, let head = DASHLiveState.stored(in: folder, replayingLog: false),
      let generation = head.logGeneration,
      head.state.tracks.allSatisfy({ $0.segments.isEmpty })
    else { return }
    self.generation = generation
  }

  /// Writes `state`: the segments of `changed` to the log and the rest to `live-dash.json`,
  /// or all of it to `live-dash.json` once it finished. `changed` names every segment set
  /// since the last write (since `state` was read from disk, for a writer that resumes);
  /// the first write of a writer that has no generation logs every segment whatever it
  /// names.
  ///
  /// - Throws: ``Transfer/Error`` with a `file` kind when a file cannot be written.
  mutating func write(_ state: DASHLiveState, changed: some Collection<Change>)
    throws(Transfer.Error)
  {
    switch plan(state, changed: changed) {
    case .whole:
      try state.write(in: folder)
    case .append(let generation, let lines, let fresh):
      do throws(Transfer.Error) {
        // What the log held belongs to no generation `live-dash.json` names.
        if fresh { DASHLiveState.log.remove(in: folder) }
        try DASHLiveState.log.append(lines, in: folder, url: state.manifestURL)
        var head = state
        for index in head.tracks.indices { head.tracks[index].segments = [:] }
        try head.writeHead(in: folder, logGeneration: generation)
      } catch {
        // A generation whose first write failed may lack segments: a later write starts
        // another, with every segment (a failed write ends a recording today, but the
        // writer does not count on it).
        if fresh { self.generation = nil }
        throw error
      }
    }
  }

  /// What ``write(_:changed:)`` writes for `state`: the lines of the segments `changed`
  /// names (by track, then number; one a segment), or of every segment at the first write
  /// of a generation. Reads no segment `changed` does not name.
  mutating func plan(_ state: DASHLiveState, changed: some Collection<Change>) -> Plan {
    if state.finished != nil {
      generation = nil
      return .whole
    }
    if let generation {
      let lines = Set(changed).sorted { ($0.track, $0.number) < ($1.track, $1.number) }
        .compactMap { change -> DASHLiveState.LogLine? in
          guard state.tracks.indices.contains(change.track),
            let segment = state.tracks[change.track].segments[change.number]
          else { return nil }
          return .init(
            generation: generation, track: state.tracks[change.track].localFolder,
            number: change.number, segment: segment)
        }
      return .append(generation: generation, lines: lines, fresh: false)
    }
    let fresh = UInt64.random(in: 1...UInt64(Int64.max))
    generation = fresh
    var lines: [DASHLiveState.LogLine] = []
    for track in state.tracks {
      for (number, segment) in track.segments.sorted(by: { $0.key < $1.key }) {
        lines.append(
          .init(generation: fresh, track: track.localFolder, number: number, segment: segment))
      }
    }
    return .append(generation: fresh, lines: lines, fresh: true)
  }
}
