/// One cue of a WebVTT subtitle track: when it shows and what it says.
struct WebVTTCue: Sendable, Equatable {
  /// When it appears, in seconds: on the stream's media timeline (the MPEG-TS times of the
  /// other tracks) when its segment has an `X-TIMESTAMP-MAP`, else from the start of its
  /// discontinuity domain, as players take a segment without one (ffmpeg's HLS muxer writes
  /// none). Once placed by ``CueTimeline``: on the file's timeline.
  var start: Double
  /// When it goes, in seconds on the same timeline.
  var end: Double
  /// Its text, lines joined with `\n`, markup kept as written.
  var text: String
  /// Whether ``start`` and ``end`` are media times (its segment had an `X-TIMESTAMP-MAP`).
  var isOnMediaTimeline = false
  /// The discontinuity domain of its segment: the `EXT-X-DISCONTINUITY` tags before it in
  /// its playlist.
  var domain = 0
}
