import HLSPlaylist

/// One segment a live recording asks to fetch, as the playlist described it when it first
/// appeared. Its key and map are the ones in effect for it, so a key rotation or an
/// `EXT-X-MAP` change is carried segment by segment.
struct LiveSegmentFetch: Sendable, Equatable {
  /// The media-sequence number: what identifies the segment across reloads (not its URI).
  var sequence: Int
  /// The discontinuity-sequence number (RFC 8216 §3, §4.3.3.3): the playlist's
  /// `EXT-X-DISCONTINUITY-SEQUENCE` plus the `EXT-X-DISCONTINUITY` tags up to this
  /// segment's URI line, its own included. Two recorded segments with different numbers need a discontinuity between
  /// them even when the segment with the tag fell out of the window unseen.
  var discontinuitySequence: Int
  /// The segment as the playlist gave it: URI, duration, byte range, keys, map, tags.
  var segment: Segment

  /// The segment's URI as written in the playlist.
  var uri: String { segment.uri }
  /// The keys in effect for the segment; empty when it is not encrypted.
  var keys: [Key] { segment.keys }
  /// The Media Initialization Section in effect for the segment.
  var map: MapSection? { segment.map }
}

extension LiveRecording {
  /// What the caller does after an event, in the order given.
  enum Action: Sendable, Equatable {
    /// Fetch these segments, lowest number first, and report each with
    /// ``LiveRecording/didFetch(_:)`` or ``LiveRecording/didFailToFetch(_:)``.
    case fetch([LiveSegmentFetch])
    /// Reload the playlist after this wait, counted from the event's instant, and report
    /// it with ``LiveRecording/didReload(_:at:)`` or ``LiveRecording/didFailToReload(_:at:)``.
    case reload(after: Duration)
    /// Write this gap into the recording's ledger (and the offline playlist).
    case recordGap(LiveGap)
    /// The recording is over: close the offline playlist with `EXT-X-ENDLIST`.
    case finish(FinishReason)
    /// The recording failed; what was recorded stays playable.
    case fail(FailReason)
  }

  /// Why a recording ended.
  enum FinishReason: String, Sendable, Equatable, Codable {
    /// The playlist has `EXT-X-ENDLIST`, and every segment in it was settled.
    case endList
    /// `--record-for` was reached.
    case durationReached
    /// `--record-until` was reached.
    case untilReached
    /// The user stopped it (Ctrl-C, `pause`).
    case stopped
    /// The playlist still answered but brought no new segment for
    /// ``Configuration/endAfterSilence``.
    case endedBySilence
  }

  /// Why a reload failed.
  enum ReloadFailure: Sendable, Equatable {
    /// The server answered with this HTTP status.
    case httpStatus(Int)
    /// No answer: connection refused, timed out, reset, name not resolved.
    case noAnswer
  }

  /// Why a recording failed.
  enum FailReason: Sendable, Equatable {
    /// Reloads failed in a row for ``Configuration/failAfterFailingReloads``; the last one
    /// failed this way.
    case reloadsFailing(last: ReloadFailure)
    /// A reload failed before any playlist had answered: there is no target duration to pace
    /// retries with, so the caller's own playlist retries have already run.
    case noPlaylist(ReloadFailure)
  }

  /// Why the caller asks the recording to stop; it finishes once the fetches asked for are
  /// settled.
  enum StopRequest: Sendable, Equatable {
    /// Ctrl-C or `pause`.
    case user
    /// `--record-for` is reached, by the caller's clock.
    case durationReached
    /// `--record-until` is reached, by the caller's clock.
    case untilReached

    /// The reason the recording finishes with.
    var finishReason: FinishReason {
      switch self {
      case .user: .stopped
      case .durationReached: .durationReached
      case .untilReached: .untilReached
      }
    }
  }
}
