import Foundation

/// How a live HLS stream (a media playlist without `EXT-X-ENDLIST`) is recorded: where it
/// starts and when it stops (issue 41). It travels in ``StreamConfiguration/live``, so
/// `offline get` and the queue record the same way, and a rerun after a kill reads it back.
///
/// A recording also stops at `EXT-X-ENDLIST`, on a cancel (Ctrl-C), or when the playlist
/// brings no new segment for ``endAfterSilence`` seconds.
///
/// ```swift
/// var stream = StreamConfiguration()
/// stream.live = LiveRecordingOptions(start: .fromStart, recordFor: .seconds(3600))
/// ```
public struct LiveRecordingOptions: Sendable, Equatable, Codable {
  /// Where a recording starts, on the first playlist that answers.
  public enum Start: Sendable, Equatable, Codable {
    /// As players start: the last segment that begins at least three target durations
    /// before the end of the playlist (RFC 8216 §6.3.3).
    case liveEdge
    /// The oldest segment still in the window (`--from-start`).
    case fromStart
    /// The last segment that begins at least this many seconds before the end.
    case secondsBack(Double)
  }

  /// Where the recording starts.
  public var start: Start
  /// Stop once this much media is recorded (`--record-for`), counted in recorded seconds,
  /// so the count goes on after a restart; nil records on.
  public var recordFor: Duration?
  /// Stop at this wall time (`--record-until`); nil records on.
  public var recordUntil: Date?
  /// Seconds the playlist may answer without a new segment before the stream counts as
  /// ended; nil takes six target durations.
  public var endAfterSilence: Duration?
  /// Consecutive parts of about this much media each (`--split`); nil records one. With
  /// `offline get`, `part001/`, `part002/`… in its folder; through the queue, consecutive
  /// contents: each part an ordinary content of its own, and when one reaches its share the
  /// manager queues the next, which starts at the first segment the part before did not
  /// record (no segment lost or recorded twice). ``recordFor`` then bounds all the parts
  /// together. A snapshot's ``LiveRecordingSummary/part`` says which part a content is.
  public var splitEvery: Duration?
  /// For a part of a recording split through the queue: which one, and what the parts
  /// before it recorded; nil for the first part and for an unsplit recording.
  package var part: Part?

  /// Options; by default from the live edge, until the stream ends.
  public init(
    start: Start = .liveEdge, recordFor: Duration? = nil, recordUntil: Date? = nil,
    endAfterSilence: Duration? = nil
  ) {
    self.start = start
    self.recordFor = recordFor
    self.recordUntil = recordUntil
    self.endAfterSilence = endAfterSilence
  }

  /// The recording's decisions with these options.
  var recordingConfiguration: LiveRecording.Configuration {
    let point: LiveRecording.StartPoint
    switch start {
    case .liveEdge: point = .liveEdge
    case .fromStart: point = .fromStart
    case .secondsBack(let seconds): point = .secondsBack(seconds)
    }
    var configuration = LiveRecording.Configuration(start: point)
    if let endAfterSilence { configuration.endAfterSilence = .fixed(endAfterSilence) }
    configuration.recordFor = recordFor?.inSeconds
    return configuration
  }
}
