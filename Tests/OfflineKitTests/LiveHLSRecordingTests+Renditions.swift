import Foundation
import HLSPlaylist
import OfflineHTTP
import OfflineStore
import TestSupport
import Testing

@testable import OfflineKit

/// Live HLS with its audio in a rendition of its own (issue 41, item 1: "alone or under a
/// master playlist with the usual variant/audio/subtitle selection"). Before, such a stream
/// was refused. Two live origins publish in step under one master playlist
/// (``LiveRenditionOrigins``).
extension LiveHLSRecordingTests {
  /// Each playlist is recorded into the folder a VOD download would give it, with no gap
  /// and every number, under an offline master naming both; the recording decodes for the
  /// whole duration, and the content's live summary is the variant's.
  @Test func aVariantAndItsAudioRenditionAreRecordedTogether() async throws {
    let stream = try await LiveRenditionOrigins(
      .init(segmentCount: 8, window: 5, initialSegments: 3))
    try stream.start()
    defer { stream.stop() }
    let (schedule, video, audio) = (stream.schedule, stream.video, stream.audio)
    let recorded = try await record(video, live: .init(start: .fromStart), url: stream.masterURL)
    #expect(recorded.state.finished == .endList)
    #expect(recorded.recorded == Array(schedule.sequences))
    let audioState = try #require(
      LiveRecordState.read(in: recorded.folder.appending(path: "audio0-en")))
    #expect(audioState.finished == .endList)
    #expect(audioState.journal.recorded.runs.flatMap { Array($0) } == Array(schedule.sequences))
    #expect(audioState.journal.ledger.gaps.isEmpty && recorded.state.journal.ledger.gaps.isEmpty)
    #expect(recorded.outcome.segments == 16)
    let master = try String(contentsOf: recorded.outcome.index, encoding: .utf8)
    #expect(master.contains("URI=\"audio0-en/index.m3u8\""), "\(master)")
    #expect(master.contains("\nvideo/index.m3u8\n"), "\(master)")
    let growing = try String(
      contentsOf: recorded.folder.appending(path: HLSGrowingPlaylists.restrictedIndex),
      encoding: .utf8)
    #expect(growing.contains("audio0-en/\(HLSGrowingPlaylists.restrictedIndex)"), "\(growing)")
    // Each origin's segments fetched once, by the recording of its own playlist.
    for origin in [video, audio] {
      #expect(
        schedule.sequences.allSatisfy { origin.server.requests(for: "/seg\($0).ts").count == 1 })
    }
    let decoded = try await FFmpeg.decode(recorded.outcome.index.path)
    #expect(decoded.errors.isEmpty, "\(decoded.errors)")
    let total = schedule.sequences.map(video.duration).reduce(0, +)
    #expect(abs(decoded.duration - total) < 0.6, "\(decoded.duration) of \(total)")
    let summary = try #require(LiveRecordingSummary(folder: recorded.folder, downloading: false))
    #expect(summary.recordedSegments == 8)
  }

  /// Stopped midway and run again, each playlist goes on from its own state, and the
  /// recording plays whole with each rendition's stop one gap of its ledger at most.
  @Test func aStoppedRecordingWithRenditionsGoesOnWithEachOfThem() async throws {
    let stream = try await LiveRenditionOrigins(
      .init(segmentCount: 12, window: 6, initialSegments: 3))
    try stream.start()
    defer { stream.stop() }
    let store = try TemporaryDirectory()
    let index = try OfflineIndex(directory: store.url.appending(path: "store"))
    var configuration = StreamConfiguration()
    configuration.live = .init(start: .fromStart)
    let download = HLSDownload(
      url: stream.masterURL,
      folder: store.url.appending(path: "content"), configuration: configuration,
      journal: index.transfers, transport: CurlTransport())
    let first = Task { try await download.run() }
    for _ in 0..<400
    where (LiveRecordState.readMain(in: download.folder)?.journal.recorded.count ?? 0) < 3 {
      try await Task.sleep(for: .milliseconds(50))  // at most 20 s
    }
    first.cancel()
    _ = try? await first.value
    let audioFolder = download.folder.appending(path: "audio0-en")
    #expect(LiveRecordState.readMain(in: download.folder)?.finished == .stopped)
    #expect(LiveRecordState.read(in: audioFolder)?.finished == .stopped)
    #expect(download.isRecordingLive)
    let outcome = try await download.run()
    for folder in [download.folder.appending(path: "video"), audioFolder] {
      let state = try #require(LiveRecordState.read(in: folder))
      #expect(state.finished == .endList, "\(folder.lastPathComponent)")
      #expect(state.journal.unaccounted().isEmpty, "\(folder.lastPathComponent)")
      #expect(state.journal.ledger.gaps.count <= 1, "\(state.journal.ledger)")
    }
    #expect(!download.isRecordingLive)
    let decoded = try await FFmpeg.decode(outcome.index.path)
    #expect(decoded.errors.isEmpty, "\(decoded.errors)")
  }
}

extension LiveHLSRecordingTests {
  /// `--split` with renditions: consecutive parts, each a recording with its master, its
  /// `video/` and its `audio0-en/`; every playlist's numbers, part after part, are the
  /// origin's once each, and every part decodes. Refused before.
  @Test func aSplitRecordingWithRenditionsLosesAndRepeatsNoSegmentOfEitherPlaylist()
    async throws
  {
    let stream = try await LiveRenditionOrigins(
      .init(segmentCount: 8, window: 5, initialSegments: 3))
    try stream.start()
    defer { stream.stop() }
    let store = try TemporaryDirectory()
    let index = try OfflineIndex(directory: store.url.appending(path: "store"))
    var configuration = StreamConfiguration()
    configuration.live = .init(start: .fromStart)
    configuration.live.splitEvery = .seconds(3)
    let download = HLSDownload(
      url: stream.masterURL, folder: store.url.appending(path: "content"),
      configuration: configuration, journal: index.transfers, transport: CurlTransport())
    let outcome = try await download.run()
    #expect(outcome.segments == 16, "both playlists' segments")
    let parts = LiveParts.existing(in: download.folder)
    #expect(parts.count >= 2, "\(parts.map(\.index))")
    for name in ["video", "audio0-en"] {
      var numbers: [Int] = []
      for part in parts {
        let state = try #require(
          LiveRecordState.read(
            in: LiveParts.folder(part.index, in: download.folder)
              .appending(path: name)))
        #expect(state.journal.ledger.gaps.isEmpty, "\(name) part \(part.index)")
        numbers += state.journal.recorded.runs.flatMap { Array($0) }
      }
      #expect(numbers == Array(stream.schedule.sequences), "\(name)")
    }
    for part in parts {
      let master = LiveParts.folder(part.index, in: download.folder).appending(path: "index.m3u8")
      let text = try String(contentsOf: master, encoding: .utf8)
      #expect(text.contains("audio0-en/index.m3u8"), "\(text)")
      let decoded = try await FFmpeg.decode(master.path)
      #expect(decoded.errors.isEmpty, "part \(part.index): \(decoded.errors)")
    }
    #expect(!download.isRecordingLive)
  }
}
