import Foundation
import TestTiming
import Testing

@testable import OfflineStore

@Suite(.timed) struct OfflineIndexTests {
  @Test func openingCreatesThePrivateDirectoryAndTheDatabase() throws {
    let parent = try TemporaryDirectory()
    let directory = parent.url.appending(path: "store/offline", directoryHint: .isDirectory)

    let index = try OfflineIndex(directory: directory)

    let attributes = try FileManager.default.attributesOfItem(
      atPath: directory.path(percentEncoded: false))
    #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o700)
    #expect(
      index.database.path == directory.appending(path: "index.sqlite").path(percentEncoded: false))
    #expect(FileManager.default.fileExists(atPath: index.database.path))
    #expect(try index.transfers.all().isEmpty)
  }

  @Test func aDirectoryThatCannotBeCreatedIsCannotOpen() throws {
    let parent = try TemporaryDirectory()
    let file = parent.url.appending(path: "file")
    try Data("x".utf8).write(to: file)
    let error = #expect(throws: StoreError.self) {
      try OfflineIndex(directory: file.appending(path: "sub"))
    }
    #expect(error?.kind == .cannotOpen)
  }
}
