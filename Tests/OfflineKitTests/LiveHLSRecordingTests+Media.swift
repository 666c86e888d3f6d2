import Foundation
import HLSPlaylist
import OfflineHTTP
import OfflineStore
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
    try await expectPlaysTheWholeStream(recorded, of: origin)
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
    try await expectPlaysTheWholeStream(recorded, of: origin)
  }
}

extension LiveHLSRecordingTests {
  /// A fragmented MP4 recording stopped and run again: the second run finds the init
  /// section the first one named and stored (in `live.json` and on disk), does not fetch it
  /// again, and the whole recording plays.
  @Test func aStoppedFragmentedRecordingGoesOnWithTheInitSectionItHas() async throws {
    let origin = try await LiveOrigin(
      .init(
        segmentCount: 14, window: 4, initialSegments: 3, media: .fragmentedMP4))
    try origin.start()
    defer { origin.stop() }
    let store = try TemporaryDirectory()
    let index = try OfflineIndex(directory: store.url.appending(path: "store"))
    var configuration = StreamConfiguration()
    configuration.live = .init(start: .fromStart)
    let download = HLSDownload(
      url: origin.url, folder: store.url.appending(path: "content"), configuration: configuration,
      journal: index.transfers, transport: CurlTransport())
    let first = Task { try await download.run() }
    for _ in 0..<400
    where (LiveRecordState.read(in: download.folder)?.journal.recorded.count ?? 0) < 3 {
      try await Task.sleep(for: .milliseconds(50))  // at most 20 s
    }
    first.cancel()
    _ = try? await first.value
    #expect(LiveRecordState.read(in: download.folder)?.finished == .stopped)
    let outcome = try await download.run()
    let state = try #require(LiveRecordState.read(in: download.folder))
    #expect(state.finished == .endList)
    #expect(state.initSections?.count == 1)
    #expect(origin.server.requests(for: "/init0.mp4").count == 1)
    #expect(state.journal.unaccounted().isEmpty)
    let decoded = try await FFmpeg.decode(outcome.index.path)
    #expect(decoded.errors.isEmpty, "\(decoded.errors)")
    let text = try String(contentsOf: outcome.index, encoding: .utf8)
    #expect(text.components(separatedBy: "#EXT-X-MAP:URI=\"init0.mp4\"").count == 2, "\(text)")
  }
}

extension LiveHLSRecordingTests {
  /// Encrypted fragmented MP4 live (issue 41), the common layout: clear init sections
  /// declared where no key is in effect (a `METHOD=NONE` before the map change at 105),
  /// AES-128 segments under keys rotating every three. The offline playlist keeps each
  /// section clear (before any key, or after `METHOD=NONE`) and the segments' keys with
  /// their IVs, and the recording decodes into the origin's pictures. Refused before this,
  /// as the offline playlist wrote every key before its map.
  @Test func anEncryptedFragmentedStreamWithClearInitSectionsIsRecordedAndPlays() async throws {
    let origin = try await LiveOrigin(
      .init(
        segmentCount: 10, window: 5, initialSegments: 3, media: .fragmentedMP4,
        mapChanges: [105], segmentsPerKey: 3))
    try origin.start()
    defer { origin.stop() }
    let recorded = try await record(origin, live: .init(start: .fromStart))
    #expect(recorded.state.finished == .endList)
    #expect(recorded.state.journal.ledger.gaps.isEmpty, "\(recorded.state.journal.ledger)")
    #expect(recorded.recorded == Array(origin.schedule.sequences))
    for index in 0..<4 {
      #expect(origin.server.requests(for: "/key\(index).key").count == 1, "key \(index)")
    }
    #expect(origin.server.requests(for: "/init1.mp4").count == 1)
    let text = try String(contentsOf: recorded.outcome.index, encoding: .utf8)
    let lines = text.split(separator: "\n").map(String.init)
    let maps = lines.indices.filter { lines[$0].hasPrefix("#EXT-X-MAP:") }
    #expect(maps.count == 2, "\(text)")
    // The first section before any key; the second after a METHOD=NONE.
    #expect(!lines[..<maps[0]].contains { $0.hasPrefix("#EXT-X-KEY:") }, "\(text)")
    #expect(maps.count == 2 && lines[maps[1] - 1] == "#EXT-X-KEY:METHOD=NONE", "\(text)")
    #expect(recorded.state.entries.values.allSatisfy { $0.mapKey == nil && $0.key != nil })
    try await expectPlaysTheWholeStream(recorded, of: origin)
  }

  /// Encrypted init sections too: the live playlist declares key 0 with an explicit IV
  /// before each `EXT-X-MAP`, then the segments' key. The section is stored as served
  /// (encrypted), its key once with the others, and the offline playlist writes the
  /// section's own key and IV before its map: the recording decodes into the origin's
  /// pictures.
  @Test func anEncryptedFragmentedStreamWithEncryptedInitSectionsIsRecordedAndPlays()
    async throws
  {
    let origin = try await LiveOrigin(
      .init(
        segmentCount: 8, window: 4, initialSegments: 3, media: .fragmentedMP4,
        segmentsPerKey: 3, encryptsInitSection: true))
    try origin.start()
    defer { origin.stop() }
    let recorded = try await record(origin, live: .init(start: .fromStart))
    #expect(recorded.state.finished == .endList)
    #expect(recorded.recorded == Array(origin.schedule.sequences))
    #expect(origin.server.requests(for: "/key0.key").count == 1)
    #expect(origin.server.requests(for: "/init0.mp4").count == 1)
    let text = try String(contentsOf: recorded.outcome.index, encoding: .utf8)
    let lines = text.split(separator: "\n").map(String.init)
    let map = try #require(lines.firstIndex { $0.hasPrefix("#EXT-X-MAP:") }, "\(text)")
    #expect(
      lines[map - 1].uppercased().hasSuffix(",IV=" + LiveOrigin.Schedule.initSectionIV.uppercased())
        && lines[map - 1].contains("URI=\"\(HLSKeyNames.local(index: 0))\""),
      "\(text)")
    #expect(recorded.state.entries.values.allSatisfy { $0.mapKey == HLSKeyNames.local(index: 0) })
    try await expectPlaysTheWholeStream(recorded, of: origin)
  }

  /// An encrypted init section without the IV RFC 8216 §4.3.2.5 requires is refused by
  /// name (a player would take the IV from a sequence number that moves as the window
  /// slides); a clear one and an encrypted one with its IV are not.
  @Test func anEncryptedInitSectionWithoutItsIVIsRefused() throws {
    func fetch(_ text: String) throws -> LiveSegmentFetch {
      guard case .media(let media) = try PlaylistParser.parse(text),
        let segment = media.segments.first
      else { throw TestSupportError.unexpectedOutput(command: "parse", output: text) }
      return LiveSegmentFetch(sequence: 7, discontinuitySequence: 0, segment: segment)
    }
    let base = URL(string: "http://127.0.0.1:9/live.m3u8")!
    let head = "#EXTM3U\n#EXT-X-VERSION:7\n#EXT-X-TARGETDURATION:1\n#EXT-X-MEDIA-SEQUENCE:7\n"
    let segment = "#EXTINF:1,\ns7.m4s\n"
    let noIV = try fetch(
      head + "#EXT-X-KEY:METHOD=AES-128,URI=\"k.key\"\n#EXT-X-MAP:URI=\"i.mp4\"\n" + segment)
    #expect(throws: Transfer.Error.self) { try noIV.mapAES128Key(base: base) }
    do {
      _ = try noIV.mapAES128Key(base: base)
    } catch {
      #expect("\(error)".contains("IV attribute"), "\(error)")
    }
    let withIV = try fetch(
      head + "#EXT-X-KEY:METHOD=AES-128,URI=\"k.key\",IV=0x01\n#EXT-X-MAP:URI=\"i.mp4\"\n"
        + segment)
    #expect(try withIV.mapAES128Key(base: base)?.uri == "k.key")
    let clear = try fetch(
      head + "#EXT-X-MAP:URI=\"i.mp4\"\n#EXT-X-KEY:METHOD=AES-128,URI=\"k.key\"\n" + segment)
    #expect(try clear.mapAES128Key(base: base) == nil)
    #expect(try clear.aes128Key(base: base)?.uri == "k.key")
  }
}
