import Foundation
import TestSupport
import TestTiming
import Testing

/// Issue 42: `kill -9` of a real `offline export` process while it writes leaves nothing at
/// the destination (only its hidden temporary file, which the next export to that path
/// removes), no `offline-export` running on without it, and the next export succeeds.
@Suite(.enabled(if: FFmpeg.isAvailable), .ownThreads, .timed)
struct ExportKillTests {
  /// An offline stream folder in `work` (8 s of noise at a high bitrate, about 85 MB) that a
  /// debug build exports in about 2 s.
  static func noisyStream(in work: TemporaryDirectory) async throws -> URL {
    let stream = work.url.appending(path: "stream")
    try FileManager.default.createDirectory(at: stream, withIntermediateDirectories: true)
    let made = try await FFmpeg.run([
      "-v", "error", "-f", "lavfi", "-i", "testsrc2=size=640x360:rate=25,noise=alls=100:allf=t",
      "-f", "lavfi", "-i", "sine=frequency=440", "-t", "8", "-c:v", "libx264", "-preset",
      "ultrafast", "-qp", "8", "-g", "50", "-c:a", "aac", "-f", "hls", "-hls_time", "2",
      "-hls_playlist_type", "vod", "-hls_segment_filename", stream.path + "/s%d.ts",
      stream.path + "/index.m3u8",
    ])
    try #require(made.status == 0, "\(made.stderrText)")
    return stream
  }

  /// Starts `offline export STREAM -o OUTPUT --quiet` and waits until its temporary file
  /// holds a few megabytes: mid-write. Returns the process, still running.
  static func exportUnderWay(_ stream: URL, to output: String, in work: TemporaryDirectory)
    async throws -> Process
  {
    let process = try OfflineBinary.start(
      ["export", stream.path, "-o", output, "--quiet"], store: work.url.appending(path: "store"))
    var partial: String?
    _ = await QueueFixture.poll(seconds: 30) {
      partial = temporaryFile(in: work.url, biggerThan: 4 << 20)
      return partial != nil || !process.isRunning
    }
    if partial == nil || !process.isRunning {
      process.killIfRunning()
      Issue.record("the export ended before it was seen writing")
    }
    return process
  }

  @Test func aKilledExportLeavesNoFileAndTheNextOneSucceeds() async throws {
    let work = try TemporaryDirectory(prefix: "offlinekit-export-kill")
    let stream = try await Self.noisyStream(in: work)
    let output = work.url.appending(path: "movie.mp4").path
    let arguments = ["export", stream.path, "-o", output, "--quiet"]

    let process = try await Self.exportUnderWay(stream, to: output, in: work)
    let exporter = try #require(
      ProcessTable.children(of: process.processIdentifier).first, "offline-export runs")
    kill(process.processIdentifier, SIGKILL)
    _ = await process.waitBounded(seconds: 10)
    // Pins the orphan: offline-export runs in a process of its own since FFmpeg left the
    // offline executable, and must not write on (nor rename its file into place) unseen.
    let ended = await QueueFixture.poll(seconds: 10) { ProcessTable.hasEnded(exporter) }
    #expect(ended, "offline-export \(exporter) ended with offline")
    #expect(Self.temporaryFile(in: work.url, biggerThan: 0) != nil, "killed: its file stays")
    #expect(!FileManager.default.fileExists(atPath: output))

    let next = try await InProcessOffline.run(
      arguments, store: work.url.appending(path: "store"), timeout: 120)
    #expect(next.status == 0, "\(next.stderrText)")
    let probe = try await MediaProbe.of(output)
    #expect(probe.kinds.sorted() == ["audio", "video"])
    #expect(abs(probe.duration - 8) <= 2)
    let left = try FileManager.default.contentsOfDirectory(atPath: work.path)
    #expect(
      left.allSatisfy { !$0.hasSuffix(".partial") }, "the killed export's file is gone: \(left)")
  }

  @Test func sigintStopsAnExportWith130AndRemovesItsFile() async throws {
    let work = try TemporaryDirectory(prefix: "offlinekit-export-sigint")
    let stream = try await Self.noisyStream(in: work)
    let output = work.url.appending(path: "movie.mp4").path
    let process = try await Self.exportUnderWay(stream, to: output, in: work)
    let exporter = ProcessTable.children(of: process.processIdentifier).first
    kill(process.processIdentifier, SIGINT)
    #expect(await process.waitBounded(seconds: 10) == 130)
    // offline waited for its exporter, which stopped on the SIGINT offline passed on.
    #expect(exporter.map(ProcessTable.hasEnded) == true, "\(String(describing: exporter))")
    #expect(!FileManager.default.fileExists(atPath: output))
    #expect(Self.temporaryFile(in: work.url, biggerThan: -1) == nil, "nothing half-written left")
  }

  /// The path of an export's temporary file in `folder` holding more than `bytes`, if any.
  static func temporaryFile(in folder: URL, biggerThan bytes: Int) -> String? {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
    for name in names where name.hasPrefix(".") && name.hasSuffix(".partial") {
      let path = folder.appending(path: name).path
      let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)
      if let size, size.intValue > bytes { return path }
    }
    return nil
  }
}
