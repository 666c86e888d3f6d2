import Foundation
import TestTiming
import Testing

@testable import TestSupport

@Suite(.timed) struct TestDataTests {
  @Test func bytesAreDeterministicAndPrefixStable() {
    let a = TestData.bytes(count: 1000, seed: 3)
    #expect(a == TestData.bytes(count: 1000, seed: 3))
    #expect(a != TestData.bytes(count: 1000, seed: 4))
    #expect(TestData.bytes(count: 13, seed: 3) == a.prefix(13))
    #expect(TestData.bytes(count: 0).isEmpty)
  }

  /// The keystream goes on where the last fill stopped, inside a 16-byte block too.
  @Test func aStreamFilledInUnevenPartsIsTheSameStream() {
    let whole = TestData.bytes(count: 100_003, seed: 8)
    let stream = TestKeystream(seed: 8)
    var parts = Data(count: whole.count)
    parts.withUnsafeMutableBytes { raw in
      var done = 0
      for size in [1, 15, 17, 4096, 33, 95_841] {
        stream.fill(UnsafeMutableRawBufferPointer(rebasing: raw[done..<done + size]))
        done += size
      }
    }
    #expect(parts == whole)
    #expect(whole.prefix(50_000) != whole.dropFirst(50_000).prefix(50_000))
  }

  @Test func writeFileWritesTheSameBytesAcrossChunks() throws {
    let dir = try TemporaryDirectory()
    let count = TestData.chunkSize * 2 + 5
    try TestData.writeFile(at: dir.file("a.bin"), count: count, seed: 9)
    let written = try Data(contentsOf: dir.file("a.bin"))
    #expect(written == TestData.bytes(count: count, seed: 9))
  }

  @Test func sha256MatchesKnownDigests() async throws {
    #expect(
      try await TestData.sha256Hex(of: Data())
        == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    #expect(
      try await TestData.sha256Hex(of: Data("abc".utf8))
        == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
  }

  @Test func sha256OfFileEqualsSha256OfItsData() async throws {
    let dir = try TemporaryDirectory()
    try TestData.writeFile(at: dir.file("a.bin"), count: 100_000)
    let expected = try await TestData.sha256Hex(of: TestData.bytes(count: 100_000))
    #expect(try await TestData.sha256Hex(of: dir.file("a.bin")) == expected)
  }

  @Test func generatesLargeCounts() {
    let data = TestData.bytes(count: (16 << 20) + 3, seed: 5)
    #expect(data.count == (16 << 20) + 3)
    #expect(data.prefix(1000) == TestData.bytes(count: 1000, seed: 5))
  }
}
