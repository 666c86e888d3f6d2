import Foundation

extension DASHLiveState {
  /// `live-dash.log` beside `live-dash.json`: the segments of a live DASH recording as an
  /// append-only log (``LiveStateLog``), one ``LogLine`` each, so saving after an event
  /// costs the new segments, not every segment recorded (``DASHLiveStateWriter``).
  static let log = LiveStateLog<LogLine>(fileName: "live-dash.log")

  /// One line of `live-dash.log`: a track's segment, under the generation of the
  /// `live-dash.json` it goes with. A line of another generation (a log a kill left before
  /// it was folded into `live-dash.json`) is not replayed.
  struct LogLine: Sendable, Equatable, Codable {
    var generation: UInt64
    /// The track's ``Track/localFolder``, which names it whatever tracks are added.
    var track: String
    var number: Int
    var segment: Segment
  }

  /// `live-dash.json` as stored: the state, and the generation of the log lines replayed
  /// over it (nil in a state written before the log existed).
  private struct Stored: Decodable {
    enum CodingKeys: String, CodingKey { case logGeneration }
    var state: DASHLiveState
    var logGeneration: UInt64?

    init(from decoder: any Decoder) throws {
      state = try DASHLiveState(from: decoder)
      logGeneration = try decoder.container(keyedBy: CodingKeys.self)
        .decodeIfPresent(UInt64.self, forKey: .logGeneration)
    }
  }

  /// The state in `folder`, the segments of `live-dash.log` replayed over those of
  /// `live-dash.json` unless `replayingLog` is false, or nil when there is none or it cannot
  /// be read. A state without a log (written before there was one, or compacted) reads
  /// as it is.
  static func read(in folder: URL, replayingLog: Bool = true) -> DASHLiveState? {
    stored(in: folder, replayingLog: replayingLog)?.state
  }

  /// The state in `folder` and its log generation (``read(in:replayingLog:)``).
  static func stored(in folder: URL, replayingLog: Bool = true)
    -> (state: DASHLiveState, logGeneration: UInt64?)?
  {
    guard let data = LiveStateFile.contents(named: fileName, in: folder),
      let stored = try? JSONDecoder().decode(Stored.self, from: data)
    else { return nil }
    var state = stored.state
    if replayingLog, let generation = stored.logGeneration {
      state.replay(log.lines(in: folder).filter { $0.generation == generation })
    }
    return (state, stored.logGeneration)
  }

  /// Sets the segment of each of `lines` on its track, the last line of a number winning;
  /// a line of no track is left out.
  private mutating func replay(_ lines: [LogLine]) {
    var indices: [String: Int] = [:]
    for (index, track) in tracks.enumerated() { indices[track.localFolder] = index }
    for line in lines {
      guard let index = indices[line.track] else { continue }
      tracks[index].segments[line.number] = line.segment
    }
  }
}
