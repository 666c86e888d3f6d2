import Foundation

/// The state the next part of a split recording starts from, written into its folder before
/// it is queued: its recorder goes on from it as after a kill, fetching what is still in the
/// window from the first number the part before did not record (what left the window is a
/// gap of the new part, never a silent hole).
enum LivePartSeed: Sendable, Equatable {
  /// HLS: a state for each playlist recorded, by its folder inside the content's (`""` for
  /// the content's own; `video`, `audio0-en`… for a recording with renditions).
  case hls([String: LiveRecordState])
  /// DASH: the state of the presentation's tracks (``DASHLiveParts/cut(_:)``'s seed).
  case dash(DASHLiveState)

  /// Writes the seed into `folder`, creating the folders it needs.
  func write(in folder: URL, url: URL) throws(Transfer.Error) {
    switch self {
    case .hls(let states):
      for (name, state) in states.sorted(by: { $0.key < $1.key }) {
        let place =
          name.isEmpty ? folder : folder.appending(path: name, directoryHint: .isDirectory)
        try Self.createFolder(place, url: url)
        try state.write(in: place)
      }
    case .dash(let state):
      try Self.createFolder(folder, url: url)
      try state.write(in: folder)
    }
  }

  private static func createFolder(_ folder: URL, url: URL) throws(Transfer.Error) {
    do {
      try FileSteps.createFolder(folder.path)
    } catch {
      throw Transfer.Error(.file(error), url: url, destination: folder.path)
    }
  }
}

/// The part a split recording goes on with: its options (its place in the recording) and
/// the state it starts from.
struct NextLivePart: Sendable, Equatable {
  var options: LiveRecordingOptions
  var seed: LivePartSeed
}

extension QueuedLivePart {
  /// The outcome of this part when `folder` holds a recording that ended already (a run
  /// stopped after the end and before the manager recorded it, which a new run into the
  /// folder would refuse): `index` its offline playlist or MPD, `bytes` what the content
  /// counted. Nil when the recording goes on, or has not started.
  static func endedEarlier(in folder: URL, index: URL, bytes: Int64) -> StreamOutcome? {
    let summary: LiveRecordingSummary
    if let state = LiveRecordState.readMain(in: folder, replayingLog: false) {
      guard !state.goesOn else { return nil }
      summary = LiveRecordingSummary(state, downloading: false)
    } else if let state = DASHLiveState.Summary.read(in: folder) {
      guard state.finished != nil, state.finished != .stopped else { return nil }
      summary = LiveRecordingSummary(state, downloading: false)
    } else {
      return nil
    }
    return StreamOutcome(
      index: index, bytes: bytes, segments: summary.recordedSegments, initSections: 0, keys: 0,
      files: summary.recordedSegments, duration: summary.recordedSeconds)
  }

  /// What follows this part, now that `download` (its content's, into its folder) ended:
  /// the next part when it reached its share and the recording goes on
  /// (``isFollowed(finished:recorded:)``), nil when the recording is over.
  ///
  /// An HLS part starts each of its playlists at the first number its recording here did not
  /// settle; none follows when the playlist has ended with nothing after those. None
  /// follows a DASH part either when the presentation ended with nothing after it
  /// (`hasEnded(_:after:silence:)`); else it is first cut at one media time for all its tracks
  /// (``DASHLiveParts/cut(_:)``: its state and offline MPD written again, the segments past
  /// the cut deleted), and the next starts each track where the cut left it; cutting again
  /// (a rerun after a kill) gives the same.
  ///
  /// - Throws: ``Transfer/Error`` when the part's files cannot be written, or, for DASH, the
  ///   live MPD the cut part's offline MPD is written from cannot be fetched.
  func next(after download: ContentDownload) async throws(Transfer.Error) -> NextLivePart? {
    let folder = URL(fileURLWithPath: download.destination, isDirectory: true)
    switch download.kind {
    case .file:
      return nil
    case .hls:
      guard let main = LiveRecordState.readMain(in: folder, replayingLog: false),
        isFollowed(finished: main.finished, recorded: main.journal.recordedSeconds)
      else { return nil }
      let states = Self.hlsSeeds(in: folder)
      guard !states.isEmpty,
        await !Self.hasEnded(download, after: main, silence: live.endAfterSilence)
      else { return nil }
      return NextLivePart(
        options: nextOptions(recorded: main.journal.recordedSeconds), seed: .hls(states))
    case .dash:
      guard let state = DASHLiveState.read(in: folder), state.finished == .durationReached,
        let (kept, seed) = DASHLiveParts.cut(state),
        isFollowed(finished: kept.finished, recorded: kept.recordedSeconds)
      else { return nil }
      let dash = download.streamDownload(DASHDownload.self, onEvent: { _ in })
      // Ended with nothing after: the part keeps all it recorded, uncut, and is the last.
      guard await !Self.hasEnded(dash, after: state, silence: live.endAfterSilence) else {
        return nil
      }
      try await dash.cutRecording(from: state, to: kept)
      return NextLivePart(options: nextOptions(recorded: kept.recordedSeconds), seed: .dash(seed))
    }
  }

  /// Whether the playlist `state` recorded has ended with no segment after those it
  /// settled (`HLSDownload.hasEnded(_:before:importing:silence:)`): a next part would
  /// record nothing.
  private static func hasEnded(
    _ download: ContentDownload, after state: LiveRecordState, silence: Duration?
  ) async -> Bool {
    guard let next = state.journal.nextSequence else { return false }
    return await download.streamDownload(HLSDownload.self, onEvent: { _ in })
      .hasEnded(state.playlistURL, before: next, importing: [:], silence: silence)
  }

  /// The seeds of an HLS part's playlists in `folder`: its own recording's, or each of its
  /// renditions' (a folder of its own each), starting at the first number each did not
  /// settle.
  static func hlsSeeds(in folder: URL) -> [String: LiveRecordState] {
    var places = [""]
    if LiveRecordState.read(in: folder, replayingLog: false) == nil {
      let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
      places = names.sorted()
    }
    var seeds: [String: LiveRecordState] = [:]
    for name in places {
      let place = name.isEmpty ? folder : folder.appending(path: name, directoryHint: .isDirectory)
      guard let state = LiveRecordState.read(in: place, replayingLog: false),
        let next = state.journal.nextSequence
      else { continue }
      seeds[name] = LiveParts.seed(startingAt: next, playlistURL: state.playlistURL)
    }
    return seeds
  }
}
