import Foundation
import TestSupport
import TestTiming
import Testing

/// HLS through the command line: `get` of a playlist, `info`, the queue with `path` and
/// `renew-keys` and bad streams refused, in-process. SIGKILLs and crash points are in
/// `StreamCrashTests`; a second `get` into the same folder in `SeveralProcessesTests`.
@Suite(.serialized, .enabled(if: FFmpeg.isAvailable), .ownThreads, .timed)
struct StreamCommandTests {
  /// An `HLSOrigin`, its playlist's URL as the text a command line takes.
  struct Origin {
    let hls: HLSOrigin
    var files: HLSFixtureFiles { hls.files }
    var nginx: NginxServer { hls.nginx }
    var url: String { hls.url.absoluteString }
  }

  func origin(_ kind: HLSFixture, segments: Int? = nil, limitRate: String? = nil) async throws
    -> Origin
  {
    Origin(
      hls: try await HLSOrigin(kind, segmentCount: segments, options: .init(limitRate: limitRate)))
  }

  @Test func getWritesAPlayableFolderAndARerunDownloadsNothing() async throws {
    let origin = try await origin(.tsVariants)
    let work = try TemporaryDirectory()
    let out = work.url.appending(path: "movie").path
    let store = work.url.appending(path: "store").path
    let first = try await InProcessOffline.run(
      ["--store", store, "get", origin.url, "-o", out, "--variant", "lowest"])
    #expect(first.status == 0, "\(first.stderrText)")
    let requests = try await origin.nginx.accessLog(minimumCount: 1).count
    origin.nginx.stop(graceful: false)
    let decoded = try await FFmpeg.decode(out + "/index.m3u8")
    #expect(decoded.errors.isEmpty)
    #expect(abs(decoded.duration - origin.files.duration) < 0.6)

    try await RepeatedGet.expectFetchesNothing(
      nginx: origin.nginx, requests: requests, store: store, url: origin.url, out: out)
  }

  /// Pins issue 11, item 6: a stream the previous version saved (keys at `keys/k0.key`) did
  /// not play in stock ffmpeg; running the same `get` again upgrades it, fetching nothing.
  @Test func aStreamSavedByThePreviousVersionPlaysAfterTheSameGet() async throws {
    let origin = try await origin(.aes128Rotating)
    let work = try TemporaryDirectory()
    let out = work.url.appending(path: "movie")
    let arguments = ["--store", work.url.appending(path: "store").path, "get", origin.url]
    let first = try await InProcessOffline.run(arguments + ["-o", out.path])
    #expect(first.status == 0, "\(first.stderrText)")
    try HLSLegacyFolder.downgrade(out)
    origin.nginx.stop(graceful: false)
    #expect(try await FFmpeg.decode(out.path + "/index.m3u8").errors.contains("blocked"))

    let again = try await InProcessOffline.run(arguments + ["-o", out.path])
    #expect(again.status == 0, "\(again.stderrText)")
    #expect(again.stderrText.contains("Already complete"))
    let decoded = try await FFmpeg.decode(out.path + "/index.m3u8")
    #expect(decoded.errors.isEmpty, "\(decoded.errors)")
    #expect(abs(decoded.duration - origin.files.duration) < 0.6)
  }

  /// Pins issue 11, item 13: "Saved … (1 segments …)" counted merged pieces, not segments.
  @Test func savedCountsTheSegmentsOfAByteRangeStream() async throws {
    let origin = try await origin(.byteRange)
    let work = try TemporaryDirectory()
    let source = try String(contentsOf: origin.files.entryFile, encoding: .utf8)
    let segments = source.components(separatedBy: "#EXTINF").count - 1
    let result = try await InProcessOffline.run([
      "--store", work.url.appending(path: "store").path, "get", origin.url, "-o",
      work.url.appending(path: "movie").path,
    ])
    #expect(result.status == 0, "\(result.stderrText)")
    #expect(result.stderrText.contains("(\(segments) segments,"), "\(result.stderrText)")
  }

  @Test func infoListsVariantsAndEncryption() async throws {
    let origin = try await origin(.renditions)
    let info = try await InProcessOffline.run(["info", origin.url])
    #expect(info.status == 0, "\(info.stderrText)")
    #expect(info.stdoutText.contains("Variants"))
    #expect(info.stdoutText.contains("Audio"))
    #expect(info.stdoutText.contains("fr"))
    let encrypted = try await self.origin(.aes128Rotating)
    #expect(try await InProcessOffline.run(["info", encrypted.url]).stdoutText.contains("AES-128"))
  }

  @Test func theQueueDownloadsAStreamAndRenewsItsKeys() async throws {
    let origin = try await origin(.aes128Rotating)
    let work = try TemporaryDirectory()
    let store = work.url.appending(path: "store").path
    let added = try await InProcessOffline.run([
      "--store", store, "add", origin.url, "--id", "movie",
    ])
    #expect(added.status == 0)
    let run = try await InProcessOffline.run(["--store", store, "run", "--quiet"])
    #expect(run.status == 0, "\(run.stderrText)")
    let path = try await InProcessOffline.run(["--store", store, "path", "movie"]).stdoutText
      .trimmingCharacters(in: .whitespacesAndNewlines)
    #expect(path.hasSuffix("/index.m3u8"))
    let before = try await origin.nginx.accessLog(minimumCount: 1).count
    let renewed = try await InProcessOffline.run(["--store", store, "renew-keys", "movie"])
    #expect(renewed.status == 0, "\(renewed.stderrText)")
    let after = try await origin.nginx.accessLog(minimumCount: before + 1)
    #expect(after.dropFirst(before).allSatisfy { $0.uri.hasSuffix(".key") })
    origin.nginx.stop(graceful: false)
    #expect(try await FFmpeg.decode(path).errors.isEmpty)
  }

  /// A live stream with AES-128 keys is recorded (issue 41); one with SAMPLE-AES is not.
  @Test func liveSampleAESStreamsAndShortKeysAreRefusedBeforeAnySegment() async throws {
    let origin = try await origin(.aes128Rotating)
    let playlist = origin.files.entryFile
    let text = try String(contentsOf: playlist, encoding: .utf8)
    try text.replacingOccurrences(of: "#EXT-X-ENDLIST", with: "")
      .replacingOccurrences(of: "#EXT-X-PLAYLIST-TYPE:VOD", with: "")
      .replacingOccurrences(of: "METHOD=AES-128", with: "METHOD=SAMPLE-AES")
      .write(to: playlist, atomically: true, encoding: .utf8)
    let work = try TemporaryDirectory()
    let live = try await InProcessOffline.run([
      "--store", work.url.appending(path: "s").path, "get", origin.url, "-o",
      work.url.appending(path: "live").path,
    ])
    #expect(live.status == 1)
    #expect(live.stderrText.contains("only AES-128 keys"), "\(live.stderrText)")

    try text.write(to: playlist, atomically: true, encoding: .utf8)
    try Data(count: 15).write(to: origin.files.keys[0])
    let short = try await InProcessOffline.run([
      "--store", work.url.appending(path: "s").path, "get", origin.url, "-o",
      work.url.appending(path: "short").path,
    ])
    #expect(short.status == 1)
    #expect(short.stderrText.contains("15 bytes"))
    let log = try await origin.nginx.accessLog(minimumCount: 2)
    #expect(!log.contains { $0.uri.hasSuffix(".ts") }, "no segment was fetched")
  }

}

extension StreamCommandTests {
  // Pins: an old stream folder (keys at keys/k0.key) was upgraded by run, renew-keys and get,
  // but the offline source an app or `offline path` hands a player still named the old keys.
  @Test func theOfflineSourceOfAnOldStreamFolderPlaysInStockFFmpeg() async throws {
    let origin = try await origin(.aes128Rotating)
    let work = try TemporaryDirectory()
    let store = work.url.appending(path: "store").path
    await #expect(
      try InProcessOffline.run(["--store", store, "add", origin.url, "--id", "old"]).status == 0)
    #expect(try await InProcessOffline.run(["--store", store, "run", "--quiet"]).status == 0)
    let folder = URL(fileURLWithPath: store).appending(path: "content/old")
    try HLSLegacyFolder.downgrade(folder)
    origin.nginx.stop(graceful: false)
    #expect(try await FFmpeg.decode(folder.path + "/index.m3u8").errors.contains("blocked"))

    let path = try await InProcessOffline.run(["--store", store, "path", "old"]).stdoutText
      .trimmingCharacters(in: .whitespacesAndNewlines)
    let decoded = try await FFmpeg.decode(path)
    #expect(decoded.errors.isEmpty, "\(decoded.errors)")
  }
}
