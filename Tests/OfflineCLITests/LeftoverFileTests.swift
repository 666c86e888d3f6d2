import Foundation
import TestSupport
import Testing

/// Nothing is left behind by a command that was refused or overtaken (issue 36, item 13): a
/// stream refused before any segment leaves no output folder, and a repair whose content was
/// deleted meanwhile by another process leaves no file in `files/`.
@Suite(.serialized, .enabled(if: FFmpeg.isAvailable), .ownThreads)
struct LeftoverFileTests {
  /// Pins issue 36, item 13: a live HLS playlist or a live MPD, refused before any segment,
  /// left an empty output folder behind.
  @Test func aStreamRefusedBeforeAnySegmentLeavesNoOutputFolder() async throws {
    let hls = try await HLSOrigin(.aes128Rotating)
    let playlist = try String(contentsOf: hls.files.entryFile, encoding: .utf8)
    try playlist.replacingOccurrences(of: "#EXT-X-ENDLIST", with: "")
      .replacingOccurrences(of: "#EXT-X-PLAYLIST-TYPE:VOD", with: "")
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

  /// Pins issue 36, item 13: `rm` while another process repaired the content left an empty
  /// file of the content's name in `files/` (the repair made it to write its chunks in), and
  /// the repair's refusal said "not downloaded, not downloaded".
  @Test func rmDuringAnotherProcesssRepairLeavesNoFileAndTheRepairSaysWhy() async throws {
    let (fixture, path) = try await VerifyCommandTests.downloaded(limitRate: "1m")
    try #require(truncate(path, 1 << 20) == 0)
    let log = fixture.folder.url.appending(path: "repair.log")
    try Data().write(to: log)
    let errors = try FileHandle(forWritingTo: log)
    let repair = Process()
    repair.executableURL = URL(fileURLWithPath: OfflineBinary.path)
    repair.arguments = ["--store", fixture.store.path, "repair", "big"]
    repair.standardOutput = FileHandle.nullDevice
    repair.standardError = errors
    try repair.run()
    defer { repair.killIfRunning() }
    // While the first damaged chunk arrives (4 MiB at 1 MiB/s).
    _ = await QueueFixture.poll(seconds: 20) {
      FileManager.default.fileExists(atPath: path + ".chunk0.part")
    }
    try? await Task.sleep(for: .microseconds(300_000))

    let removed = try await fixture.offline(["rm", "big"])
    #expect(removed.status == 0, "\(removed.stderrText)")
    await #expect(repair.waitBounded(seconds: 30) == 1)
    try errors.close()

    let folder = (path as NSString).deletingLastPathComponent
    let left = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
    #expect(left.isEmpty, "left in files/: \(left)")
    let said = String(decoding: try Data(contentsOf: log), as: UTF8.self)
    #expect(said.contains("it is not downloaded."), "\(said)")
    #expect(!said.contains("not downloaded, not downloaded"), "\(said)")
  }
}
