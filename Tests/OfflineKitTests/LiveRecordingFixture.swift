import HLSPlaylist

@testable import OfflineKit

/// Playlists and instants for the live recording's tests: a window of numbered segments
/// `seg<N>.ts` of `duration` seconds, and instants counted in seconds from one origin.
enum LiveFixture {
  /// The instant every test counts from.
  static let origin = ContinuousClock.now

  /// The instant `seconds` after ``origin``.
  static func at(_ seconds: Double) -> ContinuousClock.Instant {
    origin + .seconds(seconds)
  }

  /// A media playlist holding the segments numbered `numbers` (none when nil, starting at
  /// `emptyAt`), with discontinuities before the numbers in `discontinuities`, and the key
  /// and map `key` and `map` give for each number.
  static func window(
    _ numbers: ClosedRange<Int>?, emptyAt: Int = 0, target: Int = 6, duration: Double = 6,
    endList: Bool = false, type: MediaPlaylist.PlaylistType? = nil,
    discontinuitySequence: Int = 0, discontinuities: Set<Int> = [],
    key: (Int) -> Key? = { _ in nil }, map: (Int) -> MapSection? = { _ in nil }
  ) -> MediaPlaylist {
    let segments = (numbers.map(Array.init) ?? []).map { number in
      Segment(
        uri: "seg\(number).ts", duration: duration,
        discontinuity: discontinuities.contains(number), key: key(number), map: map(number),
        mediaSequenceNumber: number)
    }
    return MediaPlaylist(
      targetDuration: target, mediaSequence: numbers?.lowerBound ?? emptyAt,
      discontinuitySequence: discontinuitySequence, playlistType: type, hasEndList: endList,
      segments: segments)
  }

  /// The fetch actions' sequence numbers in `actions`, in order.
  static func fetched(_ actions: [LiveRecording.Action]) -> [Int] {
    actions.flatMap { action -> [Int] in
      if case .fetch(let segments) = action { return segments.map(\.sequence) }
      return []
    }
  }

  /// The segments the fetch actions in `actions` ask for, in order.
  static func fetches(_ actions: [LiveRecording.Action]) -> [LiveSegmentFetch] {
    actions.flatMap { action -> [LiveSegmentFetch] in
      if case .fetch(let segments) = action { return segments }
      return []
    }
  }

  /// The actions in `actions` that are not fetches.
  static func others(_ actions: [LiveRecording.Action]) -> [LiveRecording.Action] {
    actions.filter { action in
      if case .fetch = action { return false }
      return true
    }
  }

  /// A recording started from the oldest segment of `numbers`, each segment fetched.
  static func recording(
    fromStartOf numbers: ClosedRange<Int>, configuration: LiveRecording.Configuration = .init()
  ) -> LiveRecording {
    var configuration = configuration
    configuration.start = .fromStart
    var recording = LiveRecording(configuration: configuration)
    _ = recording.didReload(window(numbers), at: at(0))
    for number in numbers { _ = recording.didFetch(number) }
    return recording
  }
}
