import Foundation
import OfflineStore
import TestSupport
import TestTiming
import Testing

// What a real `offline` process costs, measured from outside it: its system calls counted
// with `strace` (issue 14) and its peak resident memory (issue 36, item 9). Each suite runs
// its tests one at a time, so a measurement never shares the machine with another of its own.

/// Issue 14: what the file system costs each file of a queue (`strace` around `offline run`;
/// many small files) and each piece of a stream (`strace -c -f` around `offline get`).
///
/// HLS CPU, fourth pass: in the profile of the 1000-segment stream each piece made 13
/// `newfstatat` (3 of a missing path) and one `pread64`: its folder checked before every open
/// (two stats and Foundation's own), its part stated again by the lock, by the part file and
/// when the lock ended, and its bytes read back to be hashed although they had just been in
/// memory.
///
/// `OFFLINE_BIN_UNDER_TEST` runs the same counts against another build (that is how they
/// were seen failing against 43856ff: 13.2 stats and 1.1 reads per piece; and against
/// b395927, whose pieces each took a `flock` and three stats).
@Suite(
  .ownThreads, .serialized,
  .enabled(if: SyscallCount.strace != nil, "strace is not installed"), .timed)
struct SyscallCountTests {
  // Moved from QueueFileSyscallTests (seen failing against 125a20f: 24 opens of 12 parts).
  /// Pins the second open: a queue's file takes its destination's lock by opening its part,
  /// and the first connection of the default (adaptive) transfer then opened the part again
  /// by its path, making its folder sure first (three stats). It now writes through the
  /// descriptor the lock holds: one open of each part, and every file's bytes are right.
  @Test func eachFileOfAQueueOpensItsPartOnce() async throws {
    let fixture = try QueueFixture()
    let www = fixture.folder.url.appending(path: "www")
    let count = 12
    var bodies: [String: Data] = [:]
    for index in 0..<count {
      let name = "f\(index).bin"
      bodies[name] = TestData.bytes(count: 64 << 10, seed: UInt64(300 + index))
      try bodies[name]!.write(to: www.appending(path: name))
    }
    let list = fixture.folder.file("urls.txt")
    try bodies.keys.sorted().map(fixture.url).joined(separator: "\n").write(
      to: list, atomically: true, encoding: .utf8)
    let binary = ProcessInfo.processInfo.environment["OFFLINE_BIN_UNDER_TEST"] ?? OfflineBinary.path
    let added = try await ProcessRunner.run(
      binary, ["--store", fixture.store.path, "add", "-i", list.path], timeout: 30)
    try #require(added.status == 0, "\(added.stderrText)")
    let trace = fixture.folder.file("openat.txt").path

    let run = try await ProcessRunner.run(
      SyscallCount.strace!,
      [
        "-f", "-e", "trace=openat", "-o", trace, binary, "--store", fixture.store.path, "run",
        "--parallel", "4", "--quiet",
      ], timeout: 60)

    #expect(run.status == 0, "\(run.stderrText)")
    let opens = try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n")
      .filter { $0.contains(".bin.part\"") && $0.contains("O_CREAT") }
    #expect(opens.count == count, "\(opens.count) opens of \(count) parts")
    let files = fixture.store.appending(path: "files")
    for (name, body) in bodies {
      #expect(FileManager.default.contents(atPath: files.appending(path: name).path) == body)
    }
  }

  // Moved from StreamPieceSyscallTests.
  static var binary: String {
    ProcessInfo.processInfo.environment["OFFLINE_BIN_UNDER_TEST"] ?? OfflineBinary.path
  }

  /// The calls and the failed calls of each system call in `strace -c` output.
  static func counts(_ summary: String) -> [String: (calls: Int, errors: Int)] {
    var counts: [String: (calls: Int, errors: Int)] = [:]
    for line in summary.split(separator: "\n") {
      let fields = line.split(separator: " ", omittingEmptySubsequences: true)
      // "% time  seconds  usecs/call  calls  [errors]  syscall"
      guard fields.count >= 5, Double(fields[0]) != nil, let calls = Int(fields[3]) else {
        continue
      }
      let errors = fields.count >= 6 ? Int(fields[4]) ?? 0 : 0
      counts[String(fields[fields.count - 1])] = (calls, errors)
    }
    return counts
  }

  /// Pins the per-piece stats, locks and the read-back: 40 pieces made 651 `newfstatat` (152
  /// of a missing path), 40 `flock` and 68 `pread64` (40 of them the pieces'); now at most
  /// one stat a piece (its identity, through the open descriptor), no lock of its own (the
  /// runner holds the folder's) and no read of a piece written from its first byte. Every
  /// piece still decodes, and its SHA-256 in the journal is its bytes'.
  @Test(.enabled(if: FFmpeg.isAvailable))
  func eachPieceOfAStreamStatsLittleAndIsNeverReadBack() async throws {
    let segments = 40
    let origin = try await HLSOrigin(.manySegments, segmentCount: segments)
    let work = try TemporaryDirectory()
    let out = work.url.appending(path: "movie").path
    let store = work.url.appending(path: "store").path
    let summary = work.url.appending(path: "strace.txt").path

    let run = try await ProcessRunner.run(
      SyscallCount.strace!,
      [
        "-f", "-c", "-o", summary, Self.binary, "--store", store, "get",
        origin.url.absoluteString, "-o", out, "--quiet",
      ], timeout: 120)

    #expect(run.status == 0, "\(run.stderrText)")
    let counts = Self.counts(try String(contentsOfFile: summary, encoding: .utf8))
    let stats = counts["newfstatat"] ?? (0, 0)
    // The dynamic loader's look-ups of missing paths depend on the CPU (one per
    // `glibc-hwcaps` level it supports, in each library folder): 40 on a machine with
    // x86-64-v4, 38 without. Counted apart, from a process that only starts.
    let startSummary = work.url.appending(path: "strace-start.txt").path
    _ = try await ProcessRunner.run(
      SyscallCount.strace!, ["-f", "-c", "-o", startSummary, Self.binary, "--version"],
      timeout: 30)
    let start = Self.counts(try String(contentsOfFile: startSummary, encoding: .utf8))
    let startErrors = start["newfstatat"]?.errors ?? 0
    // Besides the pieces: the store, the playlists and the process's start (about 120
    // stats, 30 of a missing path, and SQLite's 30 page reads, whatever the number of
    // pieces); a read-back per piece would add 40 reads.
    #expect(stats.calls <= segments + 140, "newfstatat: \(stats)")
    #expect(
      stats.errors - startErrors <= 25, "newfstatat ENOENT: \(stats), \(startErrors) at start")
    // The store's lock and the folder's: none of the pieces'.
    #expect((counts["flock"]?.calls ?? 0) <= 4, "flock: \(counts["flock"] ?? (0, 0))")
    #expect((counts["pread64"]?.calls ?? 0) <= segments, "pread64: \(counts["pread64"] ?? (0, 0))")
    let decoded = try await FFmpeg.decode(out + "/index.m3u8")
    #expect(decoded.errors.isEmpty)
    #expect(abs(decoded.duration - origin.files.duration) < 0.6)
    let journal = try OfflineIndex(directory: URL(fileURLWithPath: store)).transfers
    let records = try journal.records(under: out)
    let pieces = records.filter { $0.key.hasSuffix(".ts") }
    #expect(pieces.count == segments)
    for (path, record) in pieces {
      var bytes = try Data(contentsOf: URL(fileURLWithPath: record.pack?.path ?? path))
      if let pack = record.pack, let length = record.totalLength {
        bytes = bytes.subdata(in: Int(pack.offset)..<Int(pack.offset + length))
      }
      #expect(record.sha256 == (try await TestData.sha256Hex(of: bytes)), "\(path)")
    }
  }
}

/// Where `strace` is (nil: not installed).
enum SyscallCount {
  static let strace = ["/usr/bin/strace", "/bin/strace"].first {
    FileManager.default.isExecutableFile(atPath: $0)
  }
}

/// Pins issue 36, item 9: a DASH manifest of 13 to 50 KB grew `offline get` past 1.5 GB in
/// seconds (3 GB in 25 s), because the only bound counted segments per Representation: a
/// 20,000-character media template, a 50,000-character `RepresentationID`, or 50 Periods of
/// 199,999 segments each expanded to gigabytes of URLs. Each is now refused before it is
/// expanded, with a sentence naming the bound; the peak resident memory of the real process,
/// served by nginx, stays that of a small run, only the manifest is fetched and nothing is
/// written.
@Suite(.serialized, .ownThreads, .timed)
struct PeakMemoryTests {
  /// The most a refused run may reach; a plain `offline info` peaks near 30 MiB here.
  static let peakBound = 200 << 20

  /// A static manifest of `periods` Periods of `seconds` one-second segments each.
  static func manifest(periods: Int, media: String, id: String = "v", seconds: Int = 199_999)
    -> String
  {
    let period =
      "<Period duration=\"PT\(seconds)S\"><AdaptationSet mimeType=\"video/mp4\">"
      + "<SegmentTemplate timescale=\"1\" duration=\"1\" media=\"\(media)\" initialization=\"i.mp4\"/>"
      + "<Representation id=\"\(id)\" bandwidth=\"100000\"/></AdaptationSet></Period>"
    return "<?xml version=\"1.0\"?>\n<MPD xmlns=\"urn:mpeg:dash:schema:mpd:2011\" type=\"static\""
      + " mediaPresentationDuration=\"PT\(seconds * periods)S\">"
      + String(repeating: period, count: periods) + "</MPD>\n"
  }

  static let cases: [(name: String, text: String, bound: String)] = [
    (
      "long-template",
      manifest(periods: 1, media: String(repeating: "a", count: 20_000) + "$Number$.m4s"),
      "MiB of segment URLs"
    ),
    (
      "long-id",
      manifest(
        periods: 1, media: "$RepresentationID$/$Number$.m4s",
        id: String(repeating: "r", count: 50_000)), "MiB of segment URLs"
    ),
    ("many-periods", manifest(periods: 50, media: "s$Number$.m4s"), "segments in all"),
  ]

  @Test(arguments: cases.indices)
  func aSmallManifestThatExpandsToGigabytesIsRefusedWithFlatMemory(_ index: Int) async throws {
    let (name, text, bound) = Self.cases[index]
    let www = try TemporaryDirectory(prefix: "offlinekit-expansion")
    try Data(text.utf8).write(to: www.file("\(name).mpd"))
    #expect(text.utf8.count < 60_000)
    let nginx = try NginxServer(root: www.url)
    try nginx.start()
    defer { nginx.stop(graceful: false) }
    let work = try TemporaryDirectory()
    let out = work.url.appending(path: "out")
    let run = try await PeakMemoryRun.run(
      OfflineBinary.path,
      [
        "--store", work.url.appending(path: "store").path, "get",
        nginx.url("/\(name).mpd").absoluteString, "-o", out.path, "--quiet",
      ], ceiling: 1 << 30, timeout: 120)
    #expect(
      run.killedFor == nil, "\(name): killed for \(run.killedFor ?? "") at \(run.peakMiB) MiB")
    #expect(run.peakBytes < Self.peakBound, "\(name): peak \(run.peakMiB) MiB")
    #expect(run.status == 1, "\(name): \(run.stderr)")
    #expect(run.stderr.contains("at most") && run.stderr.contains(bound), "\(name): \(run.stderr)")
    let log = try await nginx.accessLog(minimumCount: 1)
    #expect(log.map(\.uri) == ["/\(name).mpd"], "only the manifest was fetched")
    let written = (try? FileManager.default.subpathsOfDirectory(atPath: out.path)) ?? []
    #expect(written.allSatisfy { !$0.hasSuffix(".m4s") && !$0.hasSuffix(".mpd") }, "\(written)")
  }
}
