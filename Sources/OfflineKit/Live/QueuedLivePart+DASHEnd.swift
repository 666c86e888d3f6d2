import Foundation

extension QueuedLivePart {
  /// Whether the live presentation `state` recorded (a part that reached its share) has
  /// ended with no segment after those its last Period's tracks asked for, as HLS checks
  /// its playlist before queuing a next part: the MPD turned `static`, or reached its
  /// `mediaPresentationDuration`, and lists no later Period nor any segment past a track's
  /// next number. A next part would record nothing: no empty content is queued.
  ///
  /// An origin may list its last segment in a `dynamic` MPD a moment before it turns the MPD
  /// `static`, so an MPD that lists nothing new yet is fetched again, every
  /// `minimumUpdatePeriod` (a target duration when absent, at least half a second), for
  /// `silence` at most (six target durations when nil: the recorder's own end by silence,
  /// after which the next part would end with nothing too). False as soon as a segment past
  /// the part or a later Period is listed, when the MPD cannot be fetched (the next part
  /// finds out), or on a cancel.
  static func hasEnded(_ dash: DASHDownload, after state: DASHLiveState, silence: Duration?)
    async -> Bool
  {
    guard let key = state.tracks.last?.periodKey else { return false }
    let tracks = state.tracks.filter { $0.periodKey == key }
    let target = tracks.compactMap(\.journal.targetDuration).max() ?? 1
    let clock = dash.session.clock
    return await LiveEndPoll.hasEnded(clock: clock, silence: silence ?? .seconds(6 * target)) {
      guard let manifest = try? await dash.fetchLiveManifest() else { return nil }
      switch listsMore(manifest, tracks: tracks, key: key, url: dash.url, clock: clock) {
      case true?: return .more
      case false?: return .ended
      case nil:
        let period = manifest.mpd.live.minimumUpdatePeriod ?? Double(target)
        return .notYet(wait: .seconds(max(period, 0.5)))
      }
    }
  }

  /// Whether `manifest` lists more for a next part than `tracks` (Period `key`'s) asked for:
  /// true for a later Period or a segment past a track's next number, false when none is
  /// and every track's segments are all available (the presentation ended), nil when none
  /// is listed yet but more may come.
  private static func listsMore(
    _ manifest: DASHLiveManifest, tracks: [DASHLiveState.Track], key: String, url: URL,
    clock: any Timekeeping
  ) -> Bool? {
    let mpd = manifest.mpd
    let keys = mpd.periods.indices.map { DASHLiveState.periodKey(mpd, at: $0) }
    guard let period = keys.lastIndex(of: key) else { return true }  // not found: go on
    if period < keys.count - 1 { return true }
    let now = manifest.wallTime(at: clock.now)
    var ended = true
    for track in tracks {
      var path = track.path
      path.period = period
      guard let next = track.journal.nextSequence,
        var window = try? DASHLiveWindow(path, of: mpd, manifestURL: url, at: now)
      else { return true }
      if window.numberedByTime {
        var numbering = track.timeNumbering ?? .init()
        window.segments = numbering.number(window.segments)
      }
      if window.segments.contains(where: { Int($0.number ?? 0) >= next }) { return true }
      ended = ended && window.ended
    }
    return ended ? false : nil
  }
}
