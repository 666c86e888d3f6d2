import Foundation
import TestSupport
import TestTiming
import Testing

@testable import OfflineKit

/// Issue 14 (HLS CPU, the per-piece system calls): a piece of a stream took a lock of its own
/// on a part it created before its request (an `openat`, a `flock`, an `fstat` and a
/// `lstat` per piece), although its runner holds the folder's lock. Its part is now created
/// when its first bytes are written; what may be at its path then is never trusted nor
/// written through.
@Suite(.timed) struct PartCreatedOnFirstWriteTests {
  static func bytes(_ count: Int, seed: UInt8) -> [UInt8] {
    (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ Int(seed)) }
  }

  @Test func nothingIsOnDiskUntilTheBufferIsWritten() throws {
    let folder = try TemporaryDirectory()
    let path = folder.file("video/s00001.ts.part").path
    let part = PartFile(creatingOnFirstWrite: path, bufferSize: 64 << 10)
    let body = Self.bytes(10_000, seed: 1)

    try body.withUnsafeBytes { try part.append($0) }
    #expect(!part.isOpen)
    #expect(!FileManager.default.fileExists(atPath: path))
    #expect(!FileManager.default.fileExists(atPath: folder.file("video").path))

    try part.flush()
    #expect(part.isOpen)
    #expect(part.flushedLength == 10_000)
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data(body))
  }

  /// A part left at the path without a record vouching for it (a crash between its first
  /// write and the record of an earlier version, or someone's file): its bytes are dropped,
  /// never continued.
  @Test func bytesAlreadyAtThePathAreReplacedNotAppendedTo() throws {
    let folder = try TemporaryDirectory()
    let path = folder.file("s00002.ts.part").path
    try Data(Self.bytes(50_000, seed: 9)).write(to: URL(fileURLWithPath: path))
    let part = PartFile(creatingOnFirstWrite: path, bufferSize: 64 << 10)
    let body = Self.bytes(3_000, seed: 2)

    try body.withUnsafeBytes { try part.append($0) }
    try part.flush()

    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data(body))
  }

  @Test func aLinkAtThePathIsRefusedAndItsTargetLeftAlone() throws {
    let folder = try TemporaryDirectory()
    let target = folder.file("elsewhere.bin").path
    try Data("keep".utf8).write(to: URL(fileURLWithPath: target))
    let path = folder.file("s00003.ts.part").path
    try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: target)
    let part = PartFile(creatingOnFirstWrite: path)

    try Self.bytes(100, seed: 3).withUnsafeBytes { try part.append($0) }
    #expect(throws: TransferFileError.self) { try part.flush() }
    #expect(try String(contentsOfFile: target, encoding: .utf8) == "keep")
  }

  /// A FIFO at the path would block an open for writing until a reader came.
  @Test func aFIFOAtThePathIsRefusedWithoutBlocking() throws {
    let folder = try TemporaryDirectory()
    let path = folder.file("s00004.ts.part").path
    #expect(mkfifo(path, 0o644) == 0)
    let part = PartFile(creatingOnFirstWrite: path)

    try Self.bytes(100, seed: 4).withUnsafeBytes { try part.append($0) }
    #expect(throws: TransferFileError.self) { try part.flush() }
  }

  /// A body of no bytes writes nothing, yet the transfer renames a file into place.
  @Test func anEmptyBodyStillGetsAnEmptyFile() throws {
    let folder = try TemporaryDirectory()
    let path = folder.file("s00005.ts.part").path
    let part = PartFile(creatingOnFirstWrite: path)

    try part.flush()
    #expect(!FileManager.default.fileExists(atPath: path))
    try part.create()
    #expect(part.isOpen)
    #expect(FileSteps.regularFileSize(path) == 0)
  }
}
