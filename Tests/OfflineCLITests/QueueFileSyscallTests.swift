import Foundation
import TestSupport
import Testing

/// Issue 14 (many small files): what the file system costs each file of a queue, seen with
/// `strace` around `offline run`. `OFFLINE_BIN_UNDER_TEST` runs it against another build (so
/// it was seen failing against 125a20f: 24 opens of 12 parts).
@Suite(.enabled(if: SyscallCount.strace != nil, "strace is not installed"))
struct QueueFileSyscallTests {
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
}
