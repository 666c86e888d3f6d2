import Foundation
import TestSupport
import TestTiming
import Testing

/// Issue 36, items 2 and 3, through the command line: `offline repair` of a stream whose
/// origin serves new bytes for its segments under the old `ETag`, `Last-Modified` and length
/// (a CDN that lies) refuses them, and `verify` (text and `--json`) keeps saying damaged,
/// naming a damaged segment of `pack.ts` by its position in the playlist and its URL.
/// Before, the repair took the new bytes and `verify` said "whole", and a segment in the pack
/// was named by its byte offset in it.
@Suite(.serialized, .enabled(if: FFmpeg.isAvailable), .ownThreads, .timed)
struct StreamRepairCommandTests {
  /// How the stream is laid out on disk.
  enum Layout: String, CaseIterable, Sendable {
    /// HLS, small segments in `pack.ts` (the default).
    case pack
    /// HLS with `--segment-files`.
    case segmentFiles
    /// DASH: a file for each segment.
    case dash
  }

  /// A stream of `layout` served by nginx and downloaded as content `c` into a store.
  struct Downloaded {
    let www: TemporaryDirectory
    let files: HLSFixtureFiles
    let nginx: NginxServer
    let store: URL
    var folder: URL { store.appending(path: "content/c") }

    init(_ layout: Layout) async throws {
      www = try TemporaryDirectory(prefix: "offlinekit-repair")
      let served = www.url.appending(path: "origin")  // the store is beside it, not inside
      files =
        layout == .dash
        ? try await DASHStreamFixture.timeline.make(in: served)
        : try await HLSFixture.manySegments.make(in: served, segmentDuration: 1, segmentCount: 5)
      nginx = try NginxServer(root: files.folder)
      try nginx.start()
      store = www.url.appending(path: "store")
      let add = try await offline(
        ["add", files.url(on: nginx).absoluteString, "--id", "c"]
          + (layout == .segmentFiles ? ["--segment-files"] : []))
      try #require(add.status == 0, "\(add.stderrText)")
      let run = try await offline(["run", "--quiet"], timeout: 60)
      try #require(run.status == 0, "\(run.stderrText)")
    }

    func offline(_ arguments: [String], timeout: Double = 30) async throws -> OfflineRun {
      try await InProcessOffline.run(["--store", store.path] + arguments, timeout: timeout)
    }

    /// Every media segment the origin serves gets other bytes under the same validators.
    func lieAboutEverySegment() async throws {
      let names = try FileManager.default.subpathsOfDirectory(atPath: files.folder.path)
      for name in names where Self.isMediaSegment(name) {
        try FileDamage.flipByteKeepingValidators(
          at: 200, of: files.folder.appending(path: name).path)
      }
    }

    /// Whether `name` is a media segment (not a playlist, manifest or init section).
    static func isMediaSegment(_ name: String) -> Bool {
      let file = (name as NSString).lastPathComponent
      return ["ts", "m4s"].contains((file as NSString).pathExtension) && !file.hasPrefix("init")
        && file != "pack.ts"
    }
  }

  @Test(arguments: Layout.allCases)
  func aRepairRefusesSegmentsTheOriginChangedUnderTheSameValidators(_ layout: Layout) async throws {
    let stream = try await Downloaded(layout)
    let whole = try await stream.offline(["verify", "c"])
    try #require(whole.status == 0, "\(whole.stdoutText)\(whole.stderrText)")
    // The third segment of the playlist: in its pack, in its file, or a DASH segment.
    let damagedPath: String
    var packedURL: String?
    switch layout {
    case .pack:
      let index = stream.folder.appending(path: "index.m3u8")
      let range = try #require(try OfflineSegments.list(index)[2].range)
      damagedPath = stream.folder.appending(path: "pack.ts").path
      try FileDamage.flipByte(at: Int64(range.lowerBound + 10), of: damagedPath)
      let uris = try String(contentsOf: stream.files.entryFile, encoding: .utf8)
        .split(separator: "\n").filter { !$0.hasPrefix("#") }.map(String.init)
      packedURL =
        URL(string: uris[2], relativeTo: stream.files.url(on: stream.nginx))?
        .absoluteString
    case .segmentFiles:
      damagedPath = try OfflineSegments.list(stream.folder.appending(path: "index.m3u8"))[2].file
      try FileDamage.flipByte(at: 10, of: damagedPath)
    case .dash:
      let names = try FileManager.default.subpathsOfDirectory(atPath: stream.folder.path)
        .filter(Downloaded.isMediaSegment).sorted()
      damagedPath = stream.folder.appending(path: try #require(names.last)).path
      try FileDamage.flipByte(at: 100, of: damagedPath)
    }
    let damaged = try Data(contentsOf: URL(filePath: damagedPath))
    try await stream.lieAboutEverySegment()

    let repair = try await stream.offline(["repair", "c"])

    #expect(repair.status == 1, "\(repair.stdoutText)")
    #expect(repair.stderrText.contains("origin changed"), "\(repair.stderrText)")
    #expect(repair.stderrText.contains("--redownload"), "\(repair.stderrText)")
    if let packedURL {
      #expect(repair.stderrText.contains(packedURL), "\(repair.stderrText)")
    }
    #expect(try Data(contentsOf: URL(filePath: damagedPath)) == damaged, "nothing written")
    let verify = try await stream.offline(["verify", "c"])
    #expect(verify.status == 1)
    #expect(verify.stdoutText.hasPrefix("c: damaged\n"), "\(verify.stdoutText)")
    let json = try await stream.offline(["verify", "c", "--json"])
    #expect(json.status == 1)
    let array = try JSONSerialization.jsonObject(with: json.stdout) as? [[String: Any]]
    #expect(array?.first?["whole"] as? Bool == false, "\(json.stdoutText)")
    let problems = try #require(array?.first?["problems"] as? [[String: Any]])
    #expect(problems.count == 1, "\(json.stdoutText)")
    guard let packedURL else { return }
    #expect(
      verify.stdoutText
        == "c: damaged\n  pack.ts (segment) has a wrong hash in segment 3 of playlist.m3u8"
        + " (\(packedURL))\n")
    let segments = try #require(problems.first?["segments"] as? [[String: Any]])
    #expect(segments.count == 1)
    #expect(segments.first?["position"] as? Int == 3)
    #expect(segments.first?["playlist"] as? String == "playlist.m3u8")
    #expect(segments.first?["url"] as? String == packedURL)
  }

  /// Issue 36, item 3: `offline repair` names what it mended as `verify` does, a segment of
  /// `pack.ts` by its position in the playlist and its URL; it printed only "repaired".
  @Test func aRepairNamesThePackedSegmentItMended() async throws {
    let stream = try await Downloaded(.pack)
    let index = stream.folder.appending(path: "index.m3u8")
    let range = try #require(try OfflineSegments.list(index)[2].range)
    let pack = stream.folder.appending(path: "pack.ts").path
    let original = try Data(contentsOf: URL(filePath: pack))
    try FileDamage.flipByte(at: Int64(range.lowerBound + 10), of: pack)
    let uris = try String(contentsOf: stream.files.entryFile, encoding: .utf8)
      .split(separator: "\n").filter { !$0.hasPrefix("#") }.map(String.init)
    let url = try #require(URL(string: uris[2], relativeTo: stream.files.url(on: stream.nginx)))

    let repair = try await stream.offline(["repair", "c"])

    #expect(repair.status == 0, "\(repair.stderrText)")
    #expect(
      repair.stdoutText
        == "c: repaired (fetched 1 piece)\n  fixed: pack.ts (segment) has a wrong hash in"
        + " segment 3 of playlist.m3u8 (\(url.absoluteString))\n")
    #expect(try Data(contentsOf: URL(filePath: pack)) == original)
    #expect(try await stream.offline(["verify", "c"]).status == 0)
  }
}
