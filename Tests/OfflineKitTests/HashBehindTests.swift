import Foundation
import TestSupport
import TestTiming
import Testing

@testable import OfflineKit

/// Issue 15, the cost of the chunk digests: the file's SHA-256 and its chunk digests are now
/// read back from the part behind the writer, on a queue of their own (``HashBehind``),
/// instead of being computed inside the body callback (two SHA-256 passes on the thread that
/// receives, which made `get --sha256` 2.02x curl's wall time instead of 1.67x). These pin
/// what hashing behind the writer could get wrong: bytes the writer got far ahead with, a
/// start-over while old bytes are being read, a file that is shorter than the writer said,
/// a writer that starts inside a chunk.
@Suite(.timed) struct HashBehindTests {
  /// A scratch file open for reading and writing, removed with the folder.
  struct Scratch {
    let folder: TemporaryDirectory
    let descriptor: Int32

    init() throws {
      folder = try TemporaryDirectory(prefix: "offlinekit-hashbehind")
      descriptor = open(folder.file("part").path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
      try #require(descriptor >= 0)
    }

    /// Writes `bytes` at `offset` in 16 KiB writes, as a body arrives, telling `hashes`
    /// after each one.
    func stream(_ bytes: Data, at offset: Int64 = 0, to hashes: HashBehind) throws {
      try bytes.withUnsafeBytes { raw in
        var done = 0
        while done < raw.count {
          let count = min(16 << 10, raw.count - done)
          let wrote = pwrite(
            descriptor, raw.baseAddress! + done, count, off_t(offset) + off_t(done))
          try #require(wrote == count)
          done += count
          try hashes.wrote(upTo: offset + Int64(done))
        }
      }
    }
  }

  static func sha(_ bytes: Data) -> String {
    let hasher = SHA256()
    bytes.withUnsafeBytes { hasher.update($0) }
    return hasher.finalizeHex()
  }

  static func chunkDigests(_ bytes: Data) -> [String] {
    stride(from: 0, to: bytes.count, by: 4 << 20).map {
      sha(bytes[$0..<min(bytes.count, $0 + (4 << 20))])
    }
  }

  /// The writer runs 80 MiB ahead as fast as it can: it is held back past the lag, and
  /// every byte is hashed once, in order.
  @Test func theHashesDescribeEveryByteOfTheFileWhenTheWriterRunsFarAhead() throws {
    let scratch = try Scratch()
    defer { close(scratch.descriptor) }
    let bytes = TestData.bytes(count: 80 << 20 + 4321, seed: 61)
    let digests = ChunkDigests()
    let hashes = HashBehind(
      descriptor: scratch.descriptor, from: 0, whole: SHA256(),
      chunks: ChunkHasher(digests: digests, length: Int64(bytes.count)))
    try scratch.stream(bytes, to: hashes)
    try hashes.finish()
    hashes.stop()
    #expect(hashes.whole?.finalizeHex() == Self.sha(bytes))
    // Overwritten: a digest taken from the file now would be that of zeros, so the list
    // shows that every chunk was hashed while it streamed.
    try #require(ftruncate(scratch.descriptor, 0) == 0)
    try #require(ftruncate(scratch.descriptor, off_t(bytes.count)) == 0)
    let list = try digests.complete(fromFile: scratch.descriptor, length: Int64(bytes.count))
    #expect(list == Self.chunkDigests(bytes))
  }

  /// A start-over (a 200 to a resume) while the worker is reading the old bytes: what was
  /// read of them is dropped, and only the new bytes make the hashes.
  @Test func aRestartWhileOldBytesAreReadHashesOnlyTheNewBytes() throws {
    let scratch = try Scratch()
    defer { close(scratch.descriptor) }
    let old = TestData.bytes(count: 128 << 20, seed: 62)
    let new = TestData.bytes(count: 9 << 20 + 5, seed: 63)
    try old.withUnsafeBytes { raw in
      try #require(pwrite(scratch.descriptor, raw.baseAddress!, raw.count, 0) == raw.count)
    }
    let digests = ChunkDigests()
    let hashes = HashBehind(
      descriptor: scratch.descriptor, from: 0, whole: SHA256(),
      chunks: ChunkHasher(digests: digests, length: Int64(new.count)))
    try hashes.found(upTo: Int64(old.count))  // the resume: the worker reads the old part
    // The start-over comes while the worker is inside the old bytes (128 MiB: two SHA-256
    // passes take a few hundred milliseconds, so this waits a few at most).
    let deadline = Date().addingTimeInterval(10)
    while hashes.hashedLength == 0 && Date() < deadline { usleep(200) }
    #expect(hashes.hashedLength < Int64(old.count), "the restart must meet the worker busy")
    hashes.restart(from: 0)
    try #require(ftruncate(scratch.descriptor, 0) == 0)
    try scratch.stream(new, to: hashes)
    try hashes.finish()
    hashes.stop()
    #expect(hashes.whole?.finalizeHex() == Self.sha(new))
    let list = try digests.complete(fromFile: scratch.descriptor, length: Int64(new.count))
    #expect(list == Self.chunkDigests(new))
  }

  /// The file holds less than the writer said (cut behind the hasher's back): a read error,
  /// never a digest of fewer bytes.
  @Test func aFileShorterThanTheWriterSaidIsAReadErrorNotAWrongHash() throws {
    let scratch = try Scratch()
    defer { close(scratch.descriptor) }
    let bytes = TestData.bytes(count: 8 << 20, seed: 64)
    let hashes = HashBehind(
      descriptor: scratch.descriptor, from: 0, whole: SHA256(), chunks: nil)
    try bytes.withUnsafeBytes { raw in
      try #require(pwrite(scratch.descriptor, raw.baseAddress!, raw.count, 0) == raw.count)
    }
    try #require(ftruncate(scratch.descriptor, 1 << 20) == 0)
    var thrown: TransferFileError?
    do {
      try hashes.wrote(upTo: Int64(bytes.count))
      try hashes.finish()
    } catch {
      thrown = error
    }
    hashes.stop()
    #expect(thrown?.operation == .read, "\(String(describing: thrown))")
  }

  /// A range of a segmented download starts inside a chunk: only the chunks it wrote whole,
  /// from their first byte, are recorded; the others are left to be hashed from the file.
  @Test func aWriterStartingInsideAChunkRecordsOnlyTheChunksItWroteWhole() throws {
    let scratch = try Scratch()
    defer { close(scratch.descriptor) }
    let size = 20 << 20
    let bytes = TestData.bytes(count: size, seed: 65)
    let start = 5 << 20 + 77
    let end = 17 << 20
    let digests = ChunkDigests()
    let hashes = HashBehind(
      descriptor: scratch.descriptor, from: Int64(start), whole: nil,
      chunks: ChunkHasher(digests: digests, length: Int64(size)))
    try #require(ftruncate(scratch.descriptor, off_t(size)) == 0)
    try scratch.stream(bytes[start..<end], at: Int64(start), to: hashes)
    try hashes.finish()
    hashes.stop()
    // Chunks 2 and 3 were written whole by this writer. The file is zeros now, so a digest
    // taken from it is that of zeros: 0, 1 (begun by another writer) and 4 (not finished).
    try #require(ftruncate(scratch.descriptor, 0) == 0)
    try #require(ftruncate(scratch.descriptor, off_t(size)) == 0)
    let list = try digests.complete(fromFile: scratch.descriptor, length: Int64(size))
    let streamed = Self.chunkDigests(bytes)
    let zeros = Self.chunkDigests(Data(count: size))
    #expect(list == [zeros[0], zeros[1], streamed[2], streamed[3], zeros[4]])
  }

  /// Pins the first chunk's shared pass (issue 14, many small files): its digest comes from
  /// the file's hasher, not from a second pass over its bytes. Around the chunk's end (one
  /// byte short of it, exactly it, one byte past it, two chunks and a bit) and for a small
  /// file hashed as it is written, every chunk digest is that of the file's bytes. The file
  /// is zeros when the list is completed, so a chunk the hashers left out shows as zeros.
  @Test(arguments: [100 << 10, 4 << 20 - 1, 4 << 20, 4 << 20 + 1, 9 << 20 + 5])
  func theFirstChunkTakenFromTheFilesHasherHasTheDigestOfItsBytes(size: Int) throws {
    let scratch = try Scratch()
    defer { close(scratch.descriptor) }
    let bytes = TestData.bytes(count: size, seed: 66)
    let digests = ChunkDigests()
    let hashes = HashBehind(
      descriptor: scratch.descriptor, from: 0, whole: SHA256(),
      chunks: ChunkHasher(digests: digests, length: Int64(size)))
    if size <= HashBehind.batch {
      // As a part writes a small file: hashed from memory as each write reaches the file.
      bytes.withUnsafeBytes { raw in
        #expect(pwrite(scratch.descriptor, raw.baseAddress!, raw.count, 0) == raw.count)
        hashes.hashWritten(raw, at: 0)
      }
      try hashes.wrote(upTo: Int64(size))
    } else {
      try scratch.stream(bytes, to: hashes)
    }
    try hashes.finish()
    hashes.recordFirstChunk(atLength: Int64(size))
    hashes.stop()
    #expect(hashes.whole?.finalizeHex() == Self.sha(bytes))
    try #require(ftruncate(scratch.descriptor, 0) == 0)
    try #require(ftruncate(scratch.descriptor, off_t(size)) == 0)
    let list = try digests.complete(fromFile: scratch.descriptor, length: Int64(size))
    #expect(list == Self.chunkDigests(bytes))
  }
}
