import Foundation
import TestSupport
import TestTiming
import Testing

@testable import OfflineKit

/// Issue 14 (HLS CPU, fourth pass): each piece of a stream was hashed by reading its bytes
/// back from the part (a `pread64` and a 256 KiB read buffer per piece) although they had
/// just left the part's own buffer. The first ``HashBehind/batch`` bytes of a file written
/// from its start are now hashed as they reach the file; bytes an earlier run wrote, and a
/// large file's later bytes, are still read back behind the writer. A descriptor that cannot
/// be read tells which way the bytes were hashed: a read back fails on it.
@Suite(.timed) struct HashWhileWritingTests {
  /// A part file open for writing only, its hashes and the part writing through it.
  struct WriteOnly {
    let folder: TemporaryDirectory
    let descriptor: Int32
    let hashes: HashBehind
    let part: PartFile

    init() throws {
      folder = try TemporaryDirectory(prefix: "offlinekit-hashwriting")
      let path = folder.file("piece.ts.part").path
      descriptor = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0o644)
      try #require(descriptor >= 0)
      let hashes = HashBehind(descriptor: descriptor, from: 0, whole: SHA256(), chunks: nil)
      self.hashes = hashes
      part = PartFile(path: path, borrowing: descriptor, length: 0)
      part.didWrite = { bytes, offset in hashes.hashWritten(bytes, at: offset) }
    }

    /// Appends `bytes` in 16 KiB parts as a body arrives, telling the hashes after each.
    func stream(_ bytes: Data) throws {
      try bytes.withUnsafeBytes { raw in
        var done = 0
        while done < raw.count {
          let count = min(16 << 10, raw.count - done)
          try part.append(UnsafeRawBufferPointer(rebasing: raw[done..<done + count]))
          try hashes.wrote(upTo: part.flushedLength)
          done += count
        }
      }
      try part.flush()
      try hashes.wrote(upTo: part.flushedLength)
    }
  }

  /// Pins the read-back of a piece: 300 KB written from byte 0 (three writes of the part's
  /// buffer) are hashed without a read, and the hash is that of the file's bytes.
  @Test func aSmallFileWrittenFromItsStartIsHashedWithoutReadingItBack() throws {
    let file = try WriteOnly()
    let body = TestData.bytes(count: 300_000, seed: 151)

    try file.stream(body)
    try file.hashes.finish()

    #expect(file.hashes.whole?.finalizeHex() == HashBehindTests.sha(body))
    #expect(fileData(file.part.path) == body)
    close(file.descriptor)
  }

  /// Past the first 2 MiB the bytes are hashed behind the writer as before (off the thread
  /// that receives the body), so a large file still reads them back.
  @Test func aLargeFileIsStillHashedByReadingItsLaterBytesBack() throws {
    let file = try WriteOnly()
    let body = TestData.bytes(count: Int(HashBehind.batch) + 300_000, seed: 152)

    try file.stream(body)
    #expect(throws: TransferFileError.self) { try file.hashes.finish() }
    close(file.descriptor)
  }
}
