import Foundation
import OfflineStore
import TestSupport
import TestTiming
import Testing

@testable import OfflineKit

/// Issue 14 (HLS CPU, packs): the file many small pieces of a stream share, and which of
/// the pieces an earlier run left there a new run keeps.
@Suite(.timed) struct PiecePackTests {
  static func bytes(_ count: Int, seed: Int) -> [UInt8] {
    (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ seed) }
  }

  static func write(_ bytes: [UInt8], to pack: PiecePack) throws -> Int64 {
    try bytes.withUnsafeBytes { buffer throws(TransferFileError) in try pack.write(buffer) }
  }

  @Test func piecesWrittenAtOnceEachGetARegionOfTheirOwn() async throws {
    let folder = try TemporaryDirectory()
    let pack = PiecePack(path: folder.file("video/pack.ts").path, keeping: 0)
    let offsets = try await withThrowingTaskGroup(of: (Int, Int64).self) { group in
      for piece in 0..<40 {
        group.addTask { (piece, try Self.write(Self.bytes(1000 + piece, seed: piece), to: pack)) }
      }
      var offsets: [Int: Int64] = [:]
      for try await (piece, offset) in group { offsets[piece] = offset }
      return offsets
    }

    let data = try Data(contentsOf: folder.file("video/pack.ts"))
    #expect(data.count == (0..<40).reduce(0) { $0 + 1000 + $1 })
    for (piece, offset) in offsets {
      let region = data[Int(offset)..<Int(offset) + 1000 + piece]
      #expect(Array(region) == Self.bytes(1000 + piece, seed: piece), "piece \(piece)")
    }
  }

  /// What follows the last region a trusted record claims was written without a record (a
  /// crash between a write and its record): it is cut before the next region, which
  /// starts right after the kept ones.
  @Test func bytesAfterTheKeptRegionsAreCutBeforeTheFirstWrite() throws {
    let folder = try TemporaryDirectory()
    let path = folder.file("pack.ts").path
    try Data(Self.bytes(5000, seed: 1)).write(to: URL(fileURLWithPath: path))
    let pack = PiecePack(path: path, keeping: 3000)

    let offset = try Self.write(Self.bytes(100, seed: 2), to: pack)

    #expect(offset == 3000)
    let data = try Data(contentsOf: URL(fileURLWithPath: path))
    #expect(data.count == 3100)
    #expect(Array(data.prefix(3000)) == Array(Self.bytes(5000, seed: 1).prefix(3000)))
  }

  @Test func aLinkWhereThePackBelongsIsRefusedAndItsTargetLeftAlone() throws {
    let folder = try TemporaryDirectory()
    let target = folder.file("elsewhere.bin").path
    try Data("keep".utf8).write(to: URL(fileURLWithPath: target))
    let path = folder.file("pack.ts").path
    try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: target)
    let pack = PiecePack(path: path, keeping: 0)

    #expect(throws: TransferFileError.self) { _ = try Self.write([1, 2, 3], to: pack) }
    #expect(try String(contentsOfFile: target, encoding: .utf8) == "keep")
  }

  // MARK: - What a run keeps

  func record(
    _ name: String, in folder: TemporaryDirectory, offset: Int64, length: Int64,
    boot: String = "boot-a", phase: TransferRecord.Phase = .complete
  ) -> TransferRecord {
    TransferRecord(
      destination: folder.file(name).path, url: "https://cdn.example/\(name)", phase: phase,
      durableOffset: length, bootID: boot, totalLength: length,
      pack: TransferRecord.Pack(path: folder.file("pack.ts").path, offset: offset))
  }

  func pieces(_ names: [String]) -> [StreamPiece] {
    names.map { name in
      StreamPiece(
        remote: URL(string: "https://cdn.example/\(name)")!, local: name, slice: nil,
        estimatedBytes: 100, segments: 1, duration: 1, pack: "pack.ts")
    }
  }

  @Test func onlyCompleteRecordsOfThisBootInsideThePackAreKept() throws {
    let folder = try TemporaryDirectory()
    try Data(count: 1000).write(to: folder.file("pack.ts"))
    let records = [
      record("s00000.ts", in: folder, offset: 0, length: 400),
      record("s00001.ts", in: folder, offset: 400, length: 300, boot: "boot-b"),
      record("s00002.ts", in: folder, offset: 700, length: 200, phase: .active),
      record("s00003.ts", in: folder, offset: 900, length: 200),  // past the pack's end
      record("s00004.ts", in: folder, offset: 400, length: 100),
    ]
    let packs = PiecePacks(
      pieces: pieces(["s00000.ts", "s00001.ts", "s00002.ts", "s00003.ts", "s00004.ts"]),
      folder: folder.url,
      records: Dictionary(uniqueKeysWithValues: records.map { ($0.destination, $0) }),
      bootID: "boot-a")

    #expect(Set(packs.kept.keys) == [folder.file("s00000.ts").path, folder.file("s00004.ts").path])
    let pack = try #require(packs.packs[folder.file("pack.ts").path])
    // The next region starts after the last kept one, and what followed it is cut.
    #expect(try Self.write([9], to: pack) == 500)
    #expect(FileSteps.regularFileSize(folder.file("pack.ts").path) == 501)
  }

  @Test func afterARebootNothingInAPackIsKept() throws {
    let folder = try TemporaryDirectory()
    try Data(count: 1000).write(to: folder.file("pack.ts"))
    let kept = record("s00000.ts", in: folder, offset: 0, length: 400)
    let packs = PiecePacks(
      pieces: pieces(["s00000.ts"]), folder: folder.url, records: [kept.destination: kept],
      bootID: "boot-c")
    #expect(packs.kept.isEmpty)
  }
}
