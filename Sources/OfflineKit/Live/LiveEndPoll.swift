import Foundation

/// Whether a live stream has ended with nothing after what a recording settled, asked
/// again until it says: the check a split recording makes before it starts a next part, so
/// no empty last part is made (HLS's playlist, DASH's MPD).
enum LiveEndPoll {
  /// What one look at the playlist or MPD found.
  enum Look {
    /// It lists more: a next part has something to record.
    case more
    /// It has ended with nothing more.
    case ended
    /// Nothing more yet; look again after `wait` (an origin may list its last segment a
    /// moment before it closes the playlist or turns the MPD `static`).
    case notYet(wait: Duration)
  }

  /// Looks with `look` until it tells more or an end, for `silence` at most (then the
  /// stream counts as ended, as the recorder's own end by silence would; nil: six times the
  /// first wait, six target durations). False when `look` is nil (it could not fetch; the
  /// next part finds out) or on a cancel.
  static func hasEnded(
    clock: any Timekeeping, silence: Duration?, look: () async -> Look?
  ) async -> Bool {
    let start = clock.instant
    while true {
      switch await look() {
      case nil, .more?: return false
      case .ended?: return true
      case .notYet(let wait)?:
        guard clock.instant + wait <= start + (silence ?? wait * 6) else { return true }
        do { try await clock.sleep(for: wait) } catch { return false }
      }
    }
  }
}
