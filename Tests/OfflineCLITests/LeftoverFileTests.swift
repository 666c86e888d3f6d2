import Foundation
import TestSupport
import TestTiming
import Testing

/// Nothing is left behind by a command that was refused or overtaken (issue 36, item 13): a
/// stream refused before any segment leaves no output folder. (A repair whose content another
/// process deletes meanwhile is in `SeveralProcessesTests`.)
@Suite(.serialized, .enabled(if: FFmpeg.isAvailable), .ownThreads, .timed)
struct LeftoverFileTests {
  /// Pins issue 36, item 13: a live HLS playlist or a live MPD, refused before any segment,
  /// left an empty output folder behind. (Live AES-128 is recorded since session 38: the
  /// refused live stream is SAMPLE-AES.)
  @Test func aStreamRefusedBeforeAnySegmentLeavesNoOutputFolder() async throws {
    let hls = try await HLSOrigin(.aes128Rotating)
    let playlist = try String(contentsOf: hls.files.entryFile, encoding: .utf8)
    try playlist.replacingOccurrences(of: "#EXT-X-ENDLIST", with: "")
      .replacingOccurrences(of: "#EXT-X-PLAYLIST-TYPE:VOD", with: "")
      .replacingOccurrences(of: "METHOD=AES-128", with: "METHOD=SAMPLE-AES")
      .write(to: hls.files.entryFile, atomically: true, encoding: .utf8)
    let dash = try await DASHCommandTests.Origin(.timeline)
    let manifest = try String(contentsOf: dash.files.entryFile, encoding: .utf8)
    try manifest.replacingOccurrences(of: "type=\"static\"", with: "type=\"dynamic\"")
      .write(to: dash.files.entryFile, atomically: true, encoding: .utf8)
    let work = try TemporaryDirectory()
    let store = work.url.appending(path: "store").path

    for (name, url) in [("hls", hls.url.absoluteString), ("dash", dash.url)] {
      let out = work.url.appending(path: name)
      let result = try await InProcessOffline.run(["--store", store, "get", url, "-o", out.path])
      #expect(result.status == 1, "\(result.stderrText)")
      #expect(result.stderrText.contains("live"), "\(result.stderrText)")
      #expect(!FileManager.default.fileExists(atPath: out.path), "\(name): folder left behind")
    }
    // A folder the user made is theirs: it stays, empty.
    let mine = work.url.appending(path: "mine")
    try FileManager.default.createDirectory(at: mine, withIntermediateDirectories: true)
    let kept = try await InProcessOffline.run(["--store", store, "get", dash.url, "-o", mine.path])
    #expect(kept.status == 1)
    #expect(try FileManager.default.contentsOfDirectory(atPath: mine.path).isEmpty)
  }

}
