import Metalink
import TestTiming
import Testing

/// What the transfer asks of a file: mirrors in order, and pieces by offset.
@Suite(.timed) struct MetalinkSelectionTests {
  func file(_ urls: [(String, Int?, String?)]) -> MetalinkFile {
    MetalinkFile(
      name: "a.bin",
      urls: urls.map { MetalinkURL(text: $0.0, priority: $0.1, location: $0.2) })
  }

  @Test func urlsAreOrderedByPriorityWithThoseWithoutOneLast() {
    let file = file([
      ("https://none.example/a", nil, nil), ("https://three.example/a", 3, "us"),
      ("https://one.example/a", 1, "de"), ("https://two.example/a", 2, "fr"),
    ])
    #expect(
      file.usableURLs().map(\.text) == [
        "https://one.example/a", "https://two.example/a", "https://three.example/a",
        "https://none.example/a",
      ])
  }

  @Test func aPreferredLocationGoesFirstAmongURLsOfTheSamePriorityOnly() {
    let file = file([
      ("https://us.example/a", 1, "us"), ("https://de-2.example/a", 2, "de"),
      ("https://fr.example/a", 1, "fr"), ("https://de-1.example/a", 1, "de"),
    ])
    #expect(
      file.usableURLs(preferring: "DE").map(\.text) == [
        "https://de-1.example/a", "https://us.example/a", "https://fr.example/a",
        "https://de-2.example/a",
      ])
  }

  @Test func urlsOfEqualRankKeepTheirDocumentOrder() {
    let file = file((0..<6).map { ("https://m\($0).example/a", 5, nil) })
    #expect(file.usableURLs().map(\.text) == (0..<6).map { "https://m\($0).example/a" })
  }

  @Test func theStrongestPiecesAreChosenAmongTheCheckableFunctions() {
    let sha1 = PieceHashes(
      algorithm: .sha1, length: 4, hashes: [[UInt8](repeating: 1, count: 20)], fileSize: 4)
    let sha256 = PieceHashes(
      algorithm: .sha256, length: 4, hashes: [[UInt8](repeating: 2, count: 32)], fileSize: 4)
    let file = MetalinkFile(name: "a", pieces: [sha1, sha256])
    #expect(file.strongestPieces()?.algorithm == .sha256)
    #expect(file.strongestPieces(checkable: [.sha1, .md5])?.algorithm == .sha1)
    #expect(file.strongestPieces(checkable: [.sha512]) == nil)
  }

  @Test func hashFunctionsCompareByStrengthAndReadEverySpelling() {
    #expect(HashAlgorithm.allCases.sorted() == [.md5, .sha1, .sha256, .sha384, .sha512])
    #expect(HashAlgorithm(name: "SHA-256") == .sha256 && HashAlgorithm(name: "sha256") == .sha256)
    #expect(HashAlgorithm(name: "SHA") == .sha1 && HashAlgorithm(name: "sha1") == .sha1)
    #expect(HashAlgorithm(name: "tiger") == nil)
    #expect(HashAlgorithm.sha512.digestLength == 64)
  }

  @Test func piecesOfAnExactMultipleEndAtTheSize() {
    let pieces = PieceHashes(
      algorithm: .sha256, length: 10, hashes: Array(repeating: [], count: 3), fileSize: 30)
    #expect((0..<3).map { pieces.byteRange(ofPiece: $0) } == [0..<10, 10..<20, 20..<30])
    #expect(pieces.piece(containing: 29) == 2 && pieces.piece(containing: 30) == nil)
    #expect(pieces.byteRange(ofPiece: -1) == nil)
    #expect(PieceHashes.expectedCount(size: 30, length: 10) == 3)
    #expect(PieceHashes.expectedCount(size: 31, length: 10) == 4)
    #expect(PieceHashes.expectedCount(size: 0, length: 10) == 0)
  }

  @Test func pieceRangesNearTheLargestSizeDoNotOverflow() {
    let pieces = PieceHashes(
      algorithm: .sha256, length: UInt64.max / 2 + 1, hashes: Array(repeating: [], count: 2),
      fileSize: UInt64.max)
    #expect(pieces.byteRange(ofPiece: 1) == (UInt64.max / 2 + 1)..<UInt64.max)
    #expect(pieces.piece(containing: UInt64.max - 1) == 1)
  }

  @Test func aChecksumIsMadeOnlyFromBytesOfItsFunctionsLength() {
    #expect(Checksum(.sha256, bytes: [UInt8](repeating: 0, count: 31)) == nil)
    #expect(
      Checksum(.md5, bytes: [UInt8](repeating: 0xAB, count: 16))?.hex
        == String(repeating: "ab", count: 16))
    #expect(
      Checksum(.sha1, hex: " \(MetalinkSamples.sha1)\n")?.description
        == "sha-1:\(MetalinkSamples.sha1)")
  }
}
