import Foundation
import TestSupport
import TestTiming
import Testing

@testable import OfflineKit

/// Session 23 (issue 14, "1 GiB from nginx on loopback ≤ 1.0x curl in every run"): a part's
/// whole blocks are written past the page cache (``DirectWriter``), the rest through it, and
/// the block a write ends inside stays in the buffer so the next write starts on a boundary.
/// These pin what that could get wrong: bytes lost or doubled at the seams of uneven
/// flushes, a resume from a length inside a block, a cut, the buffer traded for a larger
/// one, and hashes that must come from memory.
@Suite(.enabled(if: DirectWriteProbe.fileSystemWritesDirectly, "no O_DIRECT here"), .timed)
struct DirectWriteTests {
  /// What a part's writer saw: each write's offset and bytes, in order.
  final class Seen: @unchecked Sendable {  // touched by the test's one thread only
    var bytes = Data()
    var outOfOrder = 0

    func note(_ written: UnsafeRawBufferPointer, at offset: Int64) {
      if offset != Int64(bytes.count) { outOfOrder += 1 }
      bytes.append(contentsOf: written)
    }
  }

  static func part(at path: String, seen: Seen) throws -> PartFile {
    let part = try PartFile(path: path)
    part.didWrite = { seen.note($0, at: $1) }
    return part
  }

  /// Appends `bytes` in uneven parts (as bodies arrive), flushing now and then at a length
  /// inside a block (as a checkpoint does).
  static func stream(_ bytes: Data, into part: PartFile, seed: UInt64) throws {
    var generator = SplitMix64(seed: seed)
    try bytes.withUnsafeBytes { raw in
      var done = 0
      while done < raw.count {
        let count = min(Int(generator.next() % 40_000) + 1, raw.count - done)
        try part.append(UnsafeRawBufferPointer(rebasing: raw[done..<done + count]))
        done += count
        if generator.next() % 16 == 0 { try part.flush() }
      }
    }
  }

  /// The share of the file's pages in the page cache now (`mincore` over a mapping).
  static func residentShare(of path: String) throws -> Double {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    try #require(fd >= 0)
    defer { close(fd) }
    var info = stat()
    try #require(fstat(fd, &info) == 0 && info.st_size > 0)
    let length = Int(info.st_size)
    let map = mmap(nil, length, PROT_READ, MAP_SHARED, fd, 0)
    try #require(map != MAP_FAILED)
    defer { munmap(map, length) }
    let pages = (length + 4095) / 4096
    var vector = [UInt8](repeating: 0, count: pages)
    try #require(mincore(map, length, &vector) == 0)
    return Double(vector.filter { $0 & 1 != 0 }.count) / Double(pages)
  }

  @Test func unevenPartsAndFlushesLeaveExactlyTheBytesEachSeenOnceInOrder() throws {
    let folder = try TemporaryDirectory(prefix: "offlinekit-direct")
    let path = folder.file("a.part").path
    // Past PartFile.largeFile, so the buffer is traded for a larger one on the way.
    let bytes = TestData.bytes(count: 9 << 20 + 1234, seed: 23)
    let seen = Seen()
    let part = try Self.part(at: path, seen: seen)
    try Self.stream(bytes, into: part, seed: 5)
    try part.synchronize()
    #expect(part.flushedLength == Int64(bytes.count))
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes)
    #expect(seen.outOfOrder == 0)
    #expect(seen.bytes == bytes)
  }

  /// The point of it: a large part's bytes do not sit in the page cache after they were
  /// written (through the page cache all of them would, until written back and reclaimed).
  @Test func aLargePartsBytesGoPastThePageCache() throws {
    let folder = try TemporaryDirectory(prefix: "offlinekit-direct")
    let path = folder.file("b.part").path
    let bytes = TestData.bytes(count: 16 << 20, seed: 24)
    let part = try Self.part(at: path, seen: Seen())
    try Self.stream(bytes, into: part, seed: 6)
    try part.synchronize()
    // The blocks a flush ended inside went through the page cache (a few per flush).
    #expect(try Self.residentShare(of: path) < 0.1)
  }

  /// What a kill loses is what the buffer holds: a large part that arrives slowly (32 KiB
  /// every 2 ms, 16 MB/s) keeps the default buffer, one that arrives as fast as memory takes
  /// the large one. (`CrashResumeTests` caught a first version that took the large buffer
  /// for every part past 4 MiB: 13.4 MB fetched again over 12 kills, its bound 12.6 MB.)
  @Test func onlyAFastPartHoldsMoreThanTheDefaultBufferUnwritten() throws {
    let folder = try TemporaryDirectory(prefix: "offlinekit-direct")
    let bytes = TestData.bytes(count: 6 << 20, seed: 29)
    func mostUnwritten(_ name: String, pause: useconds_t) throws -> Int64 {
      let part = try Self.part(at: folder.file(name).path, seen: Seen())
      var most: Int64 = 0
      try bytes.withUnsafeBytes { raw in
        for start in stride(from: 0, to: raw.count, by: 32 << 10) {
          try part.append(UnsafeRawBufferPointer(rebasing: raw[start..<start + (32 << 10)]))
          most = max(most, part.length - part.flushedLength)
          if pause > 0 { usleep(pause) }
        }
      }
      try part.synchronize()
      #expect(try Data(contentsOf: folder.file(name)) == bytes)
      return most
    }
    #expect(try mostUnwritten("slow.part", pause: 2_000) <= Int64(PartBufferPool.size))
    #expect(try mostUnwritten("fast.part", pause: 0) > Int64(PartBufferPool.size))
  }

  /// A resume appends to a part whose length is inside a block: the first write goes
  /// through the page cache up to where a boundary can be kept, the rest past it.
  @Test func aPartResumedInsideABlockGoesOnWithTheRightBytes() throws {
    let folder = try TemporaryDirectory(prefix: "offlinekit-direct")
    let path = folder.file("c.part").path
    let bytes = TestData.bytes(count: 3 << 20 + 77, seed: 25)
    try bytes[..<5000].write(to: URL(fileURLWithPath: path))
    let seen = Seen()
    let part = try Self.part(at: path, seen: seen)
    #expect(part.flushedLength == 5000)
    try Self.stream(bytes[5000...], into: part, seed: 7)
    try part.synchronize()
    // Before reading it back, which would bring it all into the page cache.
    #expect(try Self.residentShare(of: path) < 0.2)
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes)
    #expect(seen.bytes == bytes[5000...])
  }

  /// A cut to a length inside a block (a start-over keeps what the journal vouches for),
  /// then more bytes: nothing of the carried block survives the cut.
  @Test func aCutInsideABlockThenMoreBytesLeavesTheNewBytesAfterTheKeptOnes() throws {
    let folder = try TemporaryDirectory(prefix: "offlinekit-direct")
    let path = folder.file("d.part").path
    let first = TestData.bytes(count: 1 << 20 + 3000, seed: 26)
    let second = TestData.bytes(count: 700_001, seed: 27)
    let part = try Self.part(at: path, seen: Seen())
    try Self.stream(first, into: part, seed: 8)
    try part.flush()
    try part.truncate(to: 10_000)
    try Self.stream(second, into: part, seed: 9)
    try part.synchronize()
    let expected = first[..<10_000] + second
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == expected)
  }

  /// The hashes of a part written past the page cache come from the writer's memory: with
  /// no file to read back (an invalid descriptor), a 6 MiB body is still hashed right.
  /// Reading back, as for a part written through the page cache, fails past ``batch``.
  @Test func hashesOfAPartWrittenPastThePageCacheNeverReadTheFile() throws {
    let bytes = TestData.bytes(count: 6 << 20 + 99, seed: 28)
    for fromMemory in [true, false] {
      let hashes = HashBehind(
        descriptor: -1, from: 0, whole: SHA256(), chunks: nil, fromMemory: fromMemory)
      var failed = false
      bytes.withUnsafeBytes { raw in
        var done = 0
        while done < raw.count, !failed {
          let count = min(128 << 10, raw.count - done)
          hashes.hashWritten(
            UnsafeRawBufferPointer(rebasing: raw[done..<done + count]), at: Int64(done))
          done += count
          do { try hashes.wrote(upTo: Int64(done)) } catch { failed = true }
        }
      }
      if !failed {
        do { try hashes.finish() } catch { failed = true }
      }
      hashes.stop()
      if fromMemory {
        #expect(!failed)
        #expect(hashes.whole?.finalizeHex() == HashBehindTests.sha(bytes))
      } else {
        #expect(failed)
      }
    }
  }
}

/// Whether the temporary folder's file system takes direct writes (ext4 and xfs do; tmpfs
/// before Linux 6.6 does not).
enum DirectWriteProbe {
  static let fileSystemWritesDirectly: Bool = {
    guard let folder = try? TemporaryDirectory(prefix: "offlinekit-direct-probe") else {
      return false
    }
    let fd = open(folder.file("probe").path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
    defer { close(fd) }
    return fd >= 0 && DirectWriter(sameFileAs: fd) != nil
  }()
}
