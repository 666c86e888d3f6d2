import Foundation
import TestTiming
import Testing

@testable import OfflineKit

/// Issue 15, item 1: the 4 MiB chunk digests of a file are computed as its bytes stream,
/// and are the same list however the file was fetched (one connection, ranges that meet
/// inside a chunk, a resume in the middle of one). Before, nothing but one SHA-256 per file
/// was known, so damage could not be placed, and a repair could only fetch it all again.
@Suite(.timed) struct ChunkDigestTests {
  static let size = 9 << 20 + 12_345
  static let bytes: [UInt8] = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 7) }

  /// The digest of every 4 MiB slice, hashed the plain way.
  static var expected: [String] {
    stride(from: 0, to: size, by: 4 << 20).map { start in
      let hasher = SHA256()
      bytes[start..<min(size, start + (4 << 20))].withUnsafeBytes { hasher.update($0) }
      return hasher.finalizeHex()
    }
  }

  /// Feeds `ranges` of the bytes, each in 16 KiB writes at its offsets, to one hasher per
  /// range sharing one list; the chunks no range saw whole are hashed from a file.
  static func digests(ranges: [Range<Int>], length: Int64? = nil) throws -> [String] {
    let shared = ChunkDigests()
    for range in ranges {
      let hasher = ChunkHasher(digests: shared, length: length)
      var at = range.lowerBound
      while at < range.upperBound {
        let end = min(range.upperBound, at + 16 << 10)
        bytes[at..<end].withUnsafeBytes { hasher.update($0, at: Int64(at)) }
        at = end
      }
      hasher.finish(atLength: Int64(size))
    }
    let path = FileManager.default.temporaryDirectory.appending(
      path: "chunks-\(UUID().uuidString)"
    ).path
    try Data(bytes).write(to: URL(filePath: path))
    defer { unlink(path) }
    let fd = open(path, O_RDONLY)
    defer { close(fd) }
    return try shared.complete(fromFile: fd, length: Int64(size))
  }

  @Test func oneStreamGivesTheDigestOfEachFourMiBChunk() throws {
    #expect(try Self.digests(ranges: [0..<Self.size]) == Self.expected)
    #expect(try Self.digests(ranges: [0..<Self.size], length: Int64(Self.size)) == Self.expected)
  }

  @Test func rangesMeetingInsideAChunkGiveTheSameList() throws {
    let cut = (5 << 20) + 77
    #expect(try Self.digests(ranges: [0..<cut, cut..<Self.size]) == Self.expected)
    #expect(try Self.digests(ranges: [cut..<Self.size, 0..<cut]) == Self.expected)
  }

  @Test func aResumeInsideAChunkGivesTheSameList() throws {
    let stop = (4 << 20) + 1000
    // The first run wrote up to `stop` and died; its hasher is gone. The resume streams
    // from `stop` on: chunk 0 was seen whole by nobody still alive, chunk 1 spans the resume.
    let shared = ChunkDigests()
    let hasher = ChunkHasher(digests: shared)
    Self.bytes[stop..<Self.size].withUnsafeBytes { hasher.update($0, at: Int64(stop)) }
    hasher.finish(atLength: Int64(Self.size))
    let path = FileManager.default.temporaryDirectory.appending(path: "resume-\(UUID())").path
    try Data(Self.bytes).write(to: URL(filePath: path))
    defer { unlink(path) }
    let fd = open(path, O_RDONLY)
    defer { close(fd) }
    #expect(try shared.complete(fromFile: fd, length: Int64(Self.size)) == Self.expected)
  }

  @Test func aWriteThatDoesNotContinueTheLastOneDropsTheChunkInProgress() {
    let shared = ChunkDigests()
    let hasher = ChunkHasher(digests: shared)
    Self.bytes[0..<(1 << 20)].withUnsafeBytes { hasher.update($0, at: 0) }
    // A jump: bytes from elsewhere must never be taken for the rest of chunk 0.
    Self.bytes[(2 << 20)..<(5 << 20)].withUnsafeBytes { hasher.update($0, at: 2 << 20) }
    let path = FileManager.default.temporaryDirectory.appending(path: "jump-\(UUID())").path
    _ = FileManager.default.createFile(atPath: path, contents: Data(Self.bytes))
    defer { unlink(path) }
    let fd = open(path, O_RDONLY)
    defer { close(fd) }
    #expect((try? shared.complete(fromFile: fd, length: Int64(Self.size))) == Self.expected)
  }
}
