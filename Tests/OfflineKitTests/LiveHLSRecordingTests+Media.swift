import Foundation
import TestSupport
import Testing

@testable import OfflineKit

extension LiveHLSRecordingTests {
  /// Fragmented MP4 live (issue 41): each distinct `EXT-X-MAP` is fetched once through the
  /// piece engine and listed in the offline playlist, a map change mid-stream (at 105)
  /// included, and the recording decodes into the origin's pictures.
  @Test func aFragmentedMP4StreamIsRecordedWithEachInitSectionFetchedOnce() async throws {
    let origin = try await LiveOrigin(
      .init(
        segmentCount: 10, window: 5, initialSegments: 3, media: .fragmentedMP4,
        mapChanges: [105]))
    try origin.start()
    defer { origin.stop() }
    let recorded = try await record(origin, live: .init(start: .fromStart))
    #expect(recorded.state.finished == .endList)
    #expect(recorded.state.journal.ledger.gaps.isEmpty, "\(recorded.state.journal.ledger)")
    #expect(recorded.recorded == Array(origin.schedule.sequences))
    #expect(origin.server.requests(for: "/init0.mp4").count == 1)
    #expect(origin.server.requests(for: "/init1.mp4").count == 1)
    let text = try String(contentsOf: recorded.outcome.index, encoding: .utf8)
    let maps = text.split(separator: "\n").filter { $0.hasPrefix("#EXT-X-MAP:") }
    #expect(maps == ["#EXT-X-MAP:URI=\"init0.mp4\"", "#EXT-X-MAP:URI=\"init1.mp4\""], "\(text)")
    #expect(text.contains("#EXT-X-MAP:URI=\"init1.mp4\"\n#EXTINF:"), "\(text)")
    #expect(text.contains("s000105.m4s") && !text.contains(".ts"), "\(text)")
    let decoded = try await FFmpeg.decode(recorded.outcome.index.path)
    #expect(decoded.errors.isEmpty, "\(decoded.errors)")
    let total = origin.schedule.sequences.map(origin.duration).reduce(0, +)
    #expect(abs(decoded.duration - total) < 0.6, "\(decoded.duration) of \(total)")
    try await expectSamePictures(recorded, as: recorded.recorded, of: origin)
  }

  /// AES-128 live with a key rotation every three segments, the IV left to the
  /// media-sequence number: each key is fetched once and stored as the VOD path stores keys
  /// (mode 0600), the offline playlist writes each segment's IV out (it numbers its segments
  /// from 0), and the recording decodes into the origin's pictures.
  @Test func anEncryptedStreamWithRotatingKeysIsRecordedAndPlays() async throws {
    let origin = try await LiveOrigin(
      .init(segmentCount: 10, window: 5, initialSegments: 3, segmentsPerKey: 3))
    try origin.start()
    defer { origin.stop() }
    let recorded = try await record(origin, live: .init(start: .fromStart))
    #expect(recorded.state.finished == .endList)
    #expect(recorded.state.journal.ledger.gaps.isEmpty, "\(recorded.state.journal.ledger)")
    #expect(recorded.recorded == Array(origin.schedule.sequences))
    for index in 0..<4 {
      #expect(origin.server.requests(for: "/key\(index).key").count == 1, "key \(index)")
      let key = recorded.folder.appending(path: HLSKeyNames.local(index: index))
      #expect(FileManager.default.contents(atPath: key.path) == origin.keyBytes(index))
      let mode = try FileManager.default.attributesOfItem(atPath: key.path)[.posixPermissions]
      #expect((mode as? Int) == 0o600)
    }
    let manifest = try HLSManifest.read(in: recorded.folder, url: origin.url)
    #expect(manifest.keys.count == 4)
    let text = try String(contentsOf: recorded.outcome.index, encoding: .utf8)
    let keyLines = text.split(separator: "\n").filter { $0.hasPrefix("#EXT-X-KEY:") }
    #expect(keyLines.count == 10 && keyLines.allSatisfy { $0.contains(",IV=0x") }, "\(text)")
    #expect(
      keyLines.last?.lowercased().contains("iv=0x\(String(repeating: "0", count: 30))6d") == true,
      "109's IV: \(text)")
    let decoded = try await FFmpeg.decode(recorded.outcome.index.path)
    #expect(decoded.errors.isEmpty, "\(decoded.errors)")
    let total = origin.schedule.sequences.map(origin.duration).reduce(0, +)
    #expect(abs(decoded.duration - total) < 0.6, "\(decoded.duration) of \(total)")
    try await expectSamePictures(recorded, as: recorded.recorded, of: origin)
  }
}
