import Foundation
import TestTiming
import Testing

@testable import TestSupport

@Suite(.timed) struct TemporaryDirectoryTests {
  @Test func createsAUniqueDirectoryAndRemovesItOnRelease() throws {
    var first: TemporaryDirectory? = try TemporaryDirectory()
    let second = try TemporaryDirectory(prefix: "other")
    let path = try #require(first).path
    #expect(path != second.path)
    #expect(second.url.lastPathComponent.hasPrefix("other-"))
    #expect(path.hasPrefix(FileManager.default.temporaryDirectory.path))

    try Data("x".utf8).write(to: try #require(first).file("a.txt"))
    try FileManager.default.createDirectory(
      atPath: path + "/sub", withIntermediateDirectories: true)
    try Data("y".utf8).write(to: URL(fileURLWithPath: path + "/sub/b.txt"))
    #expect(FileManager.default.fileExists(atPath: path + "/a.txt"))

    first = nil
    #expect(!FileManager.default.fileExists(atPath: path))
  }

  @Test func fileNamesAnEntryInsideTheDirectory() throws {
    let dir = try TemporaryDirectory()
    #expect(dir.file("a.bin").path == dir.path + "/a.bin")
    #expect(!FileManager.default.fileExists(atPath: dir.file("a.bin").path))
  }
}
