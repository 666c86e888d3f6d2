import Foundation
import TestTiming
import Testing

@testable import OfflineStore

/// What the store keeps of a file fetched from several sources (issue 43): a Metalink's
/// piece hashes (`contents.v7.piece-checks`) and what each source served
/// (`contents.v8.source-reports`), read back as written, refused when they do not cover the
/// file, and gone with their content.
@Suite(.timed) struct ContentSourceTablesTests {
  static func index() throws -> (OfflineIndex, TemporaryDirectory) {
    let folder = try TemporaryDirectory()
    let index = try OfflineIndex(directory: folder.url.appending(path: "store"))
    try index.contents.insert([
      ContentRecord(id: "a", url: "http://h/a", fileName: "a.bin", state: .downloading)
    ])
    return (index, folder)
  }

  @Test func pieceChecksAreReadBackAsKeptAndGoWithTheirContent() throws {
    let (index, _) = try Self.index()
    let hashes = (0..<3).map { piece in [UInt8](repeating: UInt8(piece), count: 32) }
    let checks = StoredPieceChecks(length: 1 << 20, size: (2 << 20) + 5, hashes: hashes)
    try index.contents.setPieceChecks(checks, id: "a")
    #expect(try index.contents.pieceChecks(id: "a") == checks)
    #expect(try index.contents.pieceChecks(id: "b") == nil)
    try index.contents.remove(id: "a")
    #expect(try index.contents.pieceChecks(id: "a") == nil)
  }

  @Test func pieceChecksThatDoNotCoverTheFileAreAnError() throws {
    let (index, _) = try Self.index()
    let two = [[UInt8]](repeating: [UInt8](repeating: 7, count: 32), count: 2)
    try index.contents.setPieceChecks(
      StoredPieceChecks(length: 1 << 20, size: 5 << 20, hashes: two), id: "a")
    #expect(throws: StoreError.self) { try index.contents.pieceChecks(id: "a") }
  }

  @Test func sourceReportsAreReplacedInOrderAndGoWithTheirContent() throws {
    let (index, _) = try Self.index()
    let first = [
      StoredSourceReport(url: "http://h/a", isPrimary: true, bytes: 10, badPieces: 1, dropped: nil),
      StoredSourceReport(
        url: "http://m/a", isPrimary: false, bytes: 0, badPieces: 0, dropped: "it is shorter"),
    ]
    #expect(try index.contents.record(id: "a")?.hasSourceReports == false)
    try index.contents.setSourceReports(first, id: "a")
    #expect(try index.contents.sourceReports(id: "a") == first)
    #expect(try index.contents.record(id: "a")?.hasSourceReports == true)
    let second = [first[1], first[0]]
    try index.contents.setSourceReports(second, id: "a")
    #expect(try index.contents.sourceReports(id: "a") == second)
    try index.contents.remove(id: "a")
    #expect(try index.contents.sourceReports(id: "a").isEmpty)
  }
}
