import Foundation

/// What the parts of a split live recording (`--split`) that one run recorded add up to, and
/// the options each next part records with: the same for a playlist, a playlist with its
/// renditions and a live MPD, whichever way each finds its parts.
struct LivePartTally: Sendable {
  /// The parts recorded so far, added up; its index the last part's.
  var done: StreamOutcome

  /// Nothing recorded yet, the outcome's index at `index` until a part says otherwise.
  init(index: URL) {
    done = StreamOutcome(
      index: index, bytes: 0, segments: 0, initSections: 0, keys: 0, files: 0, duration: 0)
  }

  /// The options of a part: `live`'s, with ``LiveRecordingOptions/recordFor`` its share,
  /// `every`, or what is left of the whole recording's `recordFor` after `recordedBefore`
  /// seconds in the parts before it, when that is less.
  static func options(
    _ live: LiveRecordingOptions, every: Duration, recordedBefore: Double
  ) -> LiveRecordingOptions {
    var options = live
    options.recordFor = every
    if let whole = live.recordFor {
      let left = whole.inSeconds - recordedBefore
      options.recordFor = .seconds(min(every.inSeconds, max(left, 0)))
    }
    return options
  }

  /// `onProgress` for the next part: its bytes and segments after those of the parts before.
  func reporting(to onProgress: @escaping @Sendable (OfflineProgress) -> Void)
    -> @Sendable (OfflineProgress) -> Void
  {
    let before = done
    return { progress in
      var progress = progress
      progress.bytes += before.bytes
      progress.segmentsDone = progress.segmentsDone.map { $0 + before.segments }
      onProgress(progress)
    }
  }

  /// Adds a part's `outcome`; its index becomes the recording's.
  mutating func add(_ outcome: StreamOutcome) {
    done.index = outcome.index
    done.bytes += outcome.bytes
    done.segments += outcome.segments
    done.files += outcome.files
    done.duration += outcome.duration
  }
}
