import HLSPlaylist

extension LiveRecording {
  /// The media-sequence number a recording starts at in `playlist` (which has segments):
  /// the last segment whose start is at least the wanted time before the playlist's end,
  /// the first segment when the playlist is shorter than that, and the number after the
  /// last segment for ``StartPoint/secondsBack(_:)`` 0 (only segments still to come).
  ///
  /// The live edge wants three target durations (RFC 8216 §6.3.3: a client should not
  /// start in a segment that begins less than three target durations from the end).
  func startSequence(in playlist: MediaPlaylist, at point: StartPoint) -> Int {
    let segments = playlist.segments
    let wanted: Double
    switch point {
    case .fromStart: return segments.first?.mediaSequenceNumber ?? playlist.mediaSequence
    case .liveEdge: wanted = 3 * Double(playlist.targetDuration)
    case .secondsBack(let seconds): wanted = max(seconds, 0)
    }
    var tail = 0.0
    var index = segments.count
    while index > 0, tail < wanted {
      index -= 1
      tail += segments[index].duration
    }
    if index == segments.count {
      return (segments.last?.mediaSequenceNumber ?? playlist.mediaSequence - 1) + 1
    }
    return segments[index].mediaSequenceNumber
  }
}
