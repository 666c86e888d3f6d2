import Foundation
import TestSupport
import TestTiming
import Testing

/// `get --limit-rate` caps a file and a whole stream (issue 13, item 5). The checks are lower
/// bounds: no download finishes sooner than its cap allows. How close a long run stays to
/// the cap is measured in `benchmarks/limit-rate.sh`, not here.
@Suite(.ownThreads, .timed) struct GetLimitRateTests {
  /// The bytes on disk under `folder`, files only.
  static func bytes(under folder: URL) -> Int {
    let walker = FileManager.default.enumerator(
      at: folder, includingPropertiesForKeys: [.fileSizeKey, .isRegularFileKey])
    var total = 0
    while let file = walker?.nextObject() as? URL {
      let values = try? file.resourceValues(forKeys: [.fileSizeKey, .isRegularFileKey])
      if values?.isRegularFile == true { total += values?.fileSize ?? 0 }
    }
    return total
  }

  @Test func aCappedFileArrivesWholeAndNoFasterThanItsCap() async throws {
    let size = 3 << 20
    let www = try TemporaryDirectory()
    try TestData.writeFile(at: www.file("a.bin"), count: size, seed: 11)
    let nginx = try NginxServer(root: www.url)
    try nginx.start()
    let work = try TemporaryDirectory()
    let output = work.url.appending(path: "a.bin").path
    let started = ContinuousClock.now
    let result = try await InProcessOffline.run([
      "--store", work.url.appending(path: "store").path, "get", nginx.url("/a.bin").absoluteString,
      "-o", output, "--limit-rate", "1M",
    ])
    let elapsed = started.duration(to: .now)

    #expect(result.status == 0, "\(result.stderrText)")
    #expect(FileManager.default.contents(atPath: output) == TestData.bytes(count: size, seed: 11))
    // 3 MiB at 1 MiB/s, less the 52 KiB the budget starts with: about 2.95 s.
    #expect(elapsed > .milliseconds(2_500), "3 MiB at --limit-rate 1M took \(elapsed)")
  }

  /// One cap for the whole stream: its segments, fetched eight at a time, share it.
  @Test(.enabled(if: FFmpeg.isAvailable))
  func aCappedStreamSharesOneCapAcrossItsSegments() async throws {
    let origin = try await HLSOrigin(.tsVariants, segmentCount: 8)
    let work = try TemporaryDirectory()
    let output = work.url.appending(path: "movie")
    let rate = 256 << 10
    let started = ContinuousClock.now
    let result = try await InProcessOffline.run([
      "--store", work.url.appending(path: "store").path, "get",
      origin.url.absoluteString, "-o", output.path, "--variant", "highest",
      "--limit-rate", "256k",
    ])
    let elapsed = started.duration(to: .now)

    #expect(result.status == 0, "\(result.stderrText)")
    origin.nginx.stop(graceful: false)
    #expect(try await FFmpeg.decode(output.path + "/index.m3u8").errors.isEmpty)
    let received = Self.bytes(under: output)
    #expect(received > rate, "the stream is large enough to show the cap")
    // Less the 16 KiB the budget starts with. Eight segments at once, each capped on its
    // own, would take an eighth of this.
    let floor = Double(received - 16_384) / Double(rate)
    #expect(
      elapsed > .milliseconds(Int(floor * 900)),
      "\(received) bytes at --limit-rate 256k took \(elapsed)")
  }
}

/// `run --limit-rate` caps every running download together (issue 13, item 5).
@Suite(.ownThreads, .timed) struct RunLimitRateTests {
  @Test func aRunCapsItsParallelDownloadsTogether() async throws {
    let size = 2 << 20
    let www = try TemporaryDirectory()
    for (index, name) in ["a.bin", "b.bin"].enumerated() {
      try TestData.writeFile(at: www.file(name), count: size, seed: UInt64(20 + index))
    }
    let nginx = try NginxServer(root: www.url)
    try nginx.start()
    let work = try TemporaryDirectory()
    let store = work.url.appending(path: "store").path
    for name in ["a.bin", "b.bin"] {
      let added = try await InProcessOffline.run(
        ["--store", store, "add", nginx.url("/" + name).absoluteString])
      #expect(added.status == 0, "\(added.stderrText)")
    }
    let started = ContinuousClock.now
    let run = try await InProcessOffline.run(
      ["--store", store, "run", "--parallel", "2", "--limit-rate", "1M", "--quiet"])
    let elapsed = started.duration(to: .now)

    #expect(run.status == 0, "\(run.stderrText)")
    let listed = try await InProcessOffline.run(["--store", store, "ls", "--json"])
    let downloaded = listed.stdoutText.components(separatedBy: "downloaded").count - 1
    #expect(downloaded == 2, "\(listed.stdoutText)")
    // 4 MiB at 1 MiB/s for both together, less what the budget starts with: about 3.95 s;
    // two downloads each capped on its own would take half.
    #expect(elapsed > .milliseconds(3_400), "4 MiB through run --limit-rate 1M took \(elapsed)")
  }
}
