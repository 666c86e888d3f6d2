import Foundation
import OfflineStore
import TestSupport
import Testing

/// Issue 14 (HLS CPU, fourth pass): what the file system costs each piece of a stream, counted
/// with `strace -c -f` around `offline get` of a stream from nginx. In the profile of the
/// 1000-segment stream each piece made 13 `newfstatat` (3 of a missing path) and one
/// `pread64`: its folder checked before every open (two stats and Foundation's own), its part
/// stated again by the lock, by the part file and when the lock ended, and its bytes read
/// back to be hashed although they had just been in memory.
///
/// `OFFLINE_BIN_UNDER_TEST` runs the same counts against another build (that is how they
/// were seen failing against 43856ff: 13.2 stats and 1.1 reads per piece; and against
/// b395927, whose pieces each took a `flock` and three stats).
@Suite(
  .ownThreads,
  .serialized, .enabled(if: FFmpeg.isAvailable),
  .enabled(if: SyscallCount.strace != nil, "strace is not installed"))
struct StreamPieceSyscallTests {
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
  @Test func eachPieceOfAStreamStatsLittleAndIsNeverReadBack() async throws {
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
    // Besides the pieces: the store, the playlists and the process's start (about 120
    // stats, 30 of a missing path, and SQLite's 30 page reads, whatever the number of
    // pieces); a read-back per piece would add 40 reads.
    #expect(stats.calls <= segments + 140, "newfstatat: \(stats)")
    #expect(stats.errors <= 40, "newfstatat ENOENT: \(stats)")
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
