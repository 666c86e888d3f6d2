import Foundation
import TestTiming
import Testing

@testable import OfflineStore

@Suite(.timed) struct DatabaseFailureTests {
  @Test func aGarbageFileFailsAsNotADatabaseAndIsLeftUntouched() throws {
    let directory = try TemporaryDirectory()
    let path = directory.path(OfflineIndex.fileName)
    let garbage = Data((0..<8192).map { _ in UInt8.random(in: 0...255) })
    try garbage.write(to: URL(filePath: path))

    let error = #expect(throws: StoreError.self) { try OfflineIndex(directory: directory.url) }

    #expect(error?.kind == .notADatabase)
    #expect(error?.path == path)
    #expect(error?.description.contains("is not a SQLite database") == true)
    #expect(try Data(contentsOf: URL(filePath: path)) == garbage)
    #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
  }

  @Test func aTruncatedDatabaseGivesATypedErrorNotACrash() throws {
    let directory = try TemporaryDirectory()
    let path = directory.path(OfflineIndex.fileName)
    do {
      let index = try OfflineIndex(directory: directory.url)
      let padding = String(repeating: "x", count: 500)
      for number in 0..<200 {
        try index.transfers.save(
          TransferRecord(destination: "/data/\(number)", url: "https://e.test/\(padding)"))
      }
    }
    let size = try #require(
      try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
    let handle = try FileHandle(forWritingTo: URL(filePath: path))
    try handle.truncate(atOffset: UInt64(size / 2))
    try handle.close()

    let error = #expect(throws: StoreError.self) {
      let index = try OfflineIndex(directory: directory.url)
      _ = try index.transfers.all()
      _ = try index.database.query("PRAGMA integrity_check")
    }
    #expect(error.map { [.corrupt, .ioError, .notADatabase].contains($0.kind) } == true)
  }

  /// Runs `body` with a second connection (its busy timeout `busyTimeout`) to a database that
  /// a first connection holds in an exclusive transaction.
  private func againstALockedDatabase(
    busyTimeout: Duration, _ body: (Database) throws -> Void
  ) throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("db.sqlite")
    let holder = try Database(path: path)
    try holder.execute("CREATE TABLE t (x)")
    try holder.execute("BEGIN EXCLUSIVE")
    defer { try? holder.execute("ROLLBACK") }
    try body(try Database(path: path, busyTimeout: busyTimeout))
  }

  @Test func aDatabaseLockedByAnotherConnectionGivesBusyAfterTheTimeout() throws {
    try againstALockedDatabase(busyTimeout: .milliseconds(200)) { waiter in
      let clock = ContinuousClock()
      let start = clock.now
      let error = #expect(throws: StoreError.self) {
        try waiter.execute("INSERT INTO t VALUES (1)")
      }
      #expect(error?.kind == .busy)
      #expect(clock.now - start >= .milliseconds(150))
    }
  }

  @Test func aTransactionAgainstALockedDatabaseThrowsBusy() throws {
    try againstALockedDatabase(busyTimeout: .milliseconds(50)) { waiter in
      let error = #expect(throws: StoreError.self) {
        try waiter.transaction { try $0.execute("INSERT INTO t VALUES (1)") }
      }
      #expect(error?.kind == .busy)
    }
  }

  @Test func aMissingDirectoryCannotBeOpened() throws {
    let directory = try TemporaryDirectory()
    let error = #expect(throws: StoreError.self) {
      try Database(path: directory.path("missing/db.sqlite"))
    }
    #expect(error?.kind == .cannotOpen)
  }
}
