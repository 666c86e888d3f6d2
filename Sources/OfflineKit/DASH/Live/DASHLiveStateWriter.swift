import Foundation

/// Writes a live DASH recording's state after each event that changed it, so that what one
/// event writes does not grow with the recording (issue 41): the segments that are new or
/// changed go to `live-dash.log` (``DASHLiveState/log``, fsynced) first, then
/// `live-dash.json` is written with the journals and no segment, and its summary.
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
  let folder: URL
  /// The log generation `live-dash.json` names while it holds no segment; nil before this
  /// writer wrote one.
  private var generation: UInt64?
  /// The segments in the log of ``generation``, by track (``DASHLiveState/Track/localFolder``).
  private var durable: [String: [Int: DASHLiveState.Segment]] = [:]

  /// A writer for the recording in `folder`, which goes on with the state on disk when
  /// `resuming` (its log replayed), else starts afresh.
  init(folder: URL, resuming: Bool) {
    self.folder = folder
    guard resuming, let head = DASHLiveState.stored(in: folder, replayingLog: false),
      let generation = head.logGeneration,
      head.state.tracks.allSatisfy({ $0.segments.isEmpty }),
      let whole = DASHLiveState.read(in: folder)
    else { return }
    self.generation = generation
    durable = Self.segments(of: whole)
  }

  /// Writes `state`: its new segments to the log and the rest to `live-dash.json`, or all
  /// of it to `live-dash.json` once it finished.
  ///
  /// - Throws: ``Transfer/Error`` with a `file` kind when a file cannot be written.
  mutating func write(_ state: DASHLiveState) throws(Transfer.Error) {
    if state.finished != nil {
      try state.write(in: folder)
      generation = nil
      durable = [:]
      return
    }
    if generation == nil {
      // What the log held belongs to no generation `live-dash.json` names.
      DASHLiveState.log.remove(in: folder)
      generation = .random(in: 1...UInt64(Int64.max))
      durable = [:]
    }
    guard let generation else { return }
    var lines: [DASHLiveState.LogLine] = []
    for track in state.tracks {
      let key = track.localFolder
      for (number, segment) in track.segments.sorted(by: { $0.key < $1.key })
      where durable[key]?[number] != segment {
        lines.append(.init(generation: generation, track: key, number: number, segment: segment))
        durable[key, default: [:]][number] = segment
      }
    }
    try DASHLiveState.log.append(lines, in: folder, url: state.manifestURL)
    var head = state
    for index in head.tracks.indices { head.tracks[index].segments = [:] }
    try head.writeHead(in: folder, logGeneration: generation)
  }

  private static func segments(of state: DASHLiveState) -> [String: [Int: DASHLiveState.Segment]] {
    var segments: [String: [Int: DASHLiveState.Segment]] = [:]
    for track in state.tracks { segments[track.localFolder] = track.segments }
    return segments
  }
}
