import Foundation

extension LiveRecordingOptions {
  /// Where a content stands in a live recording split through the queue (`offline add
  /// --split`): part ``number`` of the recording whose first part is content ``recording``,
  /// after ``recordedBefore`` seconds of media in the parts before it. Kept with the
  /// content's options, so any process that runs the queue reads it back.
  package struct Part: Sendable, Equatable, Codable {
    /// The id of the recording's first part, which names the recording.
    package var recording: String
    /// The part's number, from 2 (the first part has none).
    package var number: Int
    /// Seconds of media the parts before it recorded, which `recordFor` counts too.
    package var recordedBefore: Double

    /// Part `number` of `recording`, after `recordedBefore` seconds.
    package init(recording: String, number: Int, recordedBefore: Double) {
      self.recording = recording
      self.number = number
      self.recordedBefore = recordedBefore
    }
  }
}

/// One part of a live recording split through the queue (issue 41, item 5): a content of its
/// own (`downloading` while it records, `downloaded` and verified once its part ends), which
/// records like an unsplit recording into its folder, with ``recordingOptions`` its share of
/// `--split`. When it reaches its share, the manager queues the next part before recording
/// this one downloaded, seeded to start at the first segment this one did not record, as
/// `LiveParts` does for `offline get`: no segment is lost or recorded twice between parts.
///
/// A value with no I/O: what follows is decided from the part's options and its recording's
/// end.
struct QueuedLivePart: Sendable, Equatable {
  /// The recording's first part's id.
  let recording: String
  /// The part's number, from 1.
  let number: Int
  /// Seconds of media the parts before it recorded.
  let recordedBefore: Double
  /// The share of each part.
  let every: Duration
  /// The options the recording was queued with (``LiveRecordingOptions/recordFor`` the whole
  /// recording's), this part's place in it.
  let live: LiveRecordingOptions

  /// Content `id`'s part, when its options `live` split the recording; nil otherwise.
  init?(id: String, live: LiveRecordingOptions) {
    guard let every = live.splitEvery else { return nil }
    self.every = every
    self.live = live
    recording = live.part?.recording ?? id
    number = live.part?.number ?? 1
    recordedBefore = live.part?.recordedBefore ?? 0
  }

  /// The options this part records with: unsplit, ``LiveRecordingOptions/recordFor`` its
  /// share (``LivePartTally/options(_:every:recordedBefore:)``).
  var recordingOptions: LiveRecordingOptions {
    var options = LivePartTally.options(live, every: every, recordedBefore: recordedBefore)
    options.splitEvery = nil
    options.part = nil
    return options
  }

  /// Whether a next part follows this one, which finished for `reason` after recording
  /// `seconds` of media: only when it reached its share (`durationReached`) and the whole
  /// recording's ``LiveRecordingOptions/recordFor``, if any, is not reached. Any other end
  /// (the stream's, silence, `--record-until`) ends the recording.
  func isFollowed(finished reason: LiveRecording.FinishReason?, recorded seconds: Double) -> Bool {
    guard reason == .durationReached else { return false }
    if let whole = live.recordFor, recordedBefore + seconds >= whole.inSeconds { return false }
    return true
  }

  /// The options of the next part, after this one recorded `seconds` of media.
  func nextOptions(recorded seconds: Double) -> LiveRecordingOptions {
    var options = live
    options.part = LiveRecordingOptions.Part(
      recording: recording, number: number + 1, recordedBefore: recordedBefore + seconds)
    return options
  }

  /// The id part `number` of `recording` takes: `<recording>-<number>`, the recording's id
  /// shortened to keep it within the 64 bytes an id may have.
  static func id(ofPart number: Int, recording: String) -> String {
    let suffix = "-\(number)"
    return String(recording.prefix(64 - suffix.utf8.count)) + suffix
  }

  /// Whether `options`, a content's, make it part `number` of `recording`.
  static func isPart(_ number: Int, of recording: String, options: LiveRecordingOptions) -> Bool {
    options.splitEvery != nil && options.part?.recording == recording
      && options.part?.number == number
  }
}
