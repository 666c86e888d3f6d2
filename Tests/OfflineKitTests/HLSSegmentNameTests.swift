import Foundation
import OfflineHTTP
import OfflineStore
import TestSupport
import TestTiming
import Testing

@testable import OfflineKit

/// Stock ffmpeg 5.1 (Debian's 5.1.9, and so mpv) opens a local segment only when its name
/// ends in one of its `allowed_segment_extensions`, and checks that the extension fits the
/// format it finds (`extension_picky`): a `.bin`, `.php` or extensionless MPEG-TS segment is
/// refused, and so is an fMP4 segment named `.m4v`. Local names come from the remote ones,
/// so such streams did not play offline (issue 11, item 6: every stream kind plays).
@Suite(.serialized, .enabled(if: FFmpeg.isAvailable), .timed)
struct HLSSegmentNameTests {
  /// Serves the fixture `kind` on the fault server under other names (`renames`: the
  /// fixture's name and the one served), downloads it and decodes the offline copy as a stock
  /// player does.
  func playsOffline(_ kind: HLSFixture, renames: [(String, String)]) async throws -> [String] {
    let www = try TemporaryDirectory(prefix: "offlinekit-hls")
    let files = try await kind.make(in: www.url, segmentCount: 3)
    let server = try FaultServer()
    var text = try String(contentsOf: files.entryFile, encoding: .utf8)
    for (name, served) in renames {
      text = text.replacingOccurrences(of: name, with: served)
      let data = try Data(contentsOf: files.folder.appending(path: name))
      server.setRoute("/v/" + served, .resource(.init(body: data)))
    }
    server.setRoute("/v/index.m3u8", .status(code: 200, body: Data(text.utf8)))
    let store = try TemporaryDirectory()
    let index = try OfflineIndex(directory: store.url.appending(path: "store"))
    let folder = store.url.appending(path: "content")
    let outcome = try await HLSDownload(
      url: server.url("/v/index.m3u8"), folder: folder, journal: index.transfers,
      transport: CurlTransport()
    ).run()
    server.stop()
    let decoded = try await FFmpeg.decode(outcome.index.path)
    #expect(decoded.errors.isEmpty, "\(decoded.errors)")
    #expect(abs(decoded.duration - files.duration) < 0.6, "\(decoded.duration)")
    return try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
  }

  /// Pins issue 11, item 6 for MPEG-TS segments served without a media extension.
  @Test func mpegTSSegmentsWithOddNamesPlayOffline() async throws {
    let names = try await playsOffline(
      .manySegments, renames: [("seg0.ts", "seg0"), ("seg1.ts", "seg1.php"), ("seg2.ts", "s.bin")])
    let segmentFiles = names.filter { $0.hasPrefix("s0") || $0.hasPrefix("pack.") }
    #expect(!segmentFiles.isEmpty && segmentFiles.allSatisfy { $0.hasSuffix(".ts") }, "\(names)")
  }

  /// Pins issue 11, item 6 for fMP4: an extensionless init section and `.m4v` segments.
  @Test func fragmentedMP4WithOddNamesPlaysOffline() async throws {
    let names = try await playsOffline(
      .fmp4,
      renames: [
        ("init.mp4", "init"), ("seg0.m4s", "seg0.m4v"), ("seg1.m4s", "seg1.m4v"),
        ("seg2.m4s", "seg2.m4v"),
      ])
    #expect(names.contains("init0.mp4"), "\(names)")
    let segmentFiles = names.filter { $0.hasPrefix("s0") || $0.hasPrefix("pack.") }
    #expect(!segmentFiles.isEmpty && segmentFiles.allSatisfy { $0.hasSuffix(".m4s") }, "\(names)")
  }
}
