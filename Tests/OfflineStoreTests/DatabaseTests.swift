import Foundation
import TestTiming
import Testing

@testable import OfflineStore

@Suite(.timed) struct DatabaseTests {
  struct Boom: Error {}

  @Test func openCreatesTheFileInWALMode() throws {
    let directory = try TemporaryDirectory()
    let database = try Database(path: directory.path("db.sqlite"))
    #expect(FileManager.default.fileExists(atPath: directory.path("db.sqlite")))
    #expect(try database.query("PRAGMA journal_mode").first?.string("journal_mode") == "wal")
    #expect(try database.query("PRAGMA foreign_keys").first?.int64("foreign_keys") == 1)
    #expect(try database.query("PRAGMA synchronous").first?.int64("synchronous") == 1)
    #expect(try database.query("PRAGMA busy_timeout").first?.int64("timeout") == 5000)
  }

  @Test func transactionCommitsAndReturnsTheBodysValue() throws {
    let directory = try TemporaryDirectory()
    let database = try Database(path: directory.path("db.sqlite"))
    try database.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT)")
    let id = try database.transaction { connection in
      try connection.execute("INSERT INTO t (name) VALUES (?)", ["a"])
      return connection.lastInsertRowID
    }
    #expect(id == 1)
    #expect(try database.query("SELECT name FROM t").map { try $0.string("name") } == ["a"])
  }

  @Test func transactionRollsBackAndRethrowsWhenTheBodyThrows() throws {
    let directory = try TemporaryDirectory()
    let database = try Database(path: directory.path("db.sqlite"))
    try database.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT)")
    #expect(throws: Boom.self) {
      try database.transaction { connection in
        try connection.execute("INSERT INTO t (name) VALUES (?)", ["a"])
        throw Boom()
      }
    }
    #expect(try database.query("SELECT * FROM t").isEmpty)
    // The connection is usable again: no transaction was left open.
    try database.transaction { try $0.execute("INSERT INTO t (name) VALUES ('b')") }
    #expect(try database.query("SELECT * FROM t").count == 1)
  }

  @Test func callingTheDatabaseInsideItsTransactionThrowsInsteadOfDeadlocking() throws {
    let directory = try TemporaryDirectory()
    let database = try Database(path: directory.path("db.sqlite"))
    let error = #expect(throws: StoreError.self) {
      try database.transaction { _ in try database.execute("SELECT 1") }
    }
    #expect(error?.kind == .misuse)
    #expect(try database.transaction { _ in database.changes } == 0)
  }

  @Test func aConnectionUsedAfterItsTransactionThrowsMisuse() throws {
    let directory = try TemporaryDirectory()
    let database = try Database(path: directory.path("db.sqlite"))
    let escaped = try database.transaction { $0 }
    let error = #expect(throws: StoreError.self) { try escaped.execute("SELECT 1") }
    #expect(error?.kind == .misuse)
  }

  @Test func reopeningAfterCloseSeesCommittedData() throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("db.sqlite")
    do {
      let database = try Database(path: path)
      try database.execute("CREATE TABLE t (name TEXT); INSERT INTO t VALUES ('kept')")
    }
    #expect(!FileManager.default.fileExists(atPath: path + "-wal"), "closing checkpoints the WAL")
    let reopened = try Database(path: path)
    #expect(try reopened.query("SELECT name FROM t").map { try $0.string("name") } == ["kept"])
  }

  @Test func valuesRoundTripIncludingEmptyTextAndBlobs() throws {
    let directory = try TemporaryDirectory()
    let database = try Database(path: directory.path("db.sqlite"))
    try database.execute("CREATE TABLE t (i, r, s, e, b, eb, n)")
    try database.execute(
      "INSERT INTO t VALUES (?, ?, ?, ?, ?, ?, ?)",
      [.integer(.max), 1.5, "héllo", "", .blob([0, 1, 255]), .blob([]), nil])
    let row = try #require(try database.query("SELECT * FROM t").first)
    #expect(try row.int64("i") == .max)
    #expect(try row.double("r") == 1.5)
    #expect(try row.string("s") == "héllo")
    #expect(try row.string("e") == "")
    #expect(try row.blob("b") == [0, 1, 255])
    #expect(try row.blob("eb") == [])
    #expect(try row.stringOrNil("n") == nil)
    #expect(row["n"] == .null)
    #expect(row["missing"] == nil)
  }

  @Test func rowAccessorsThrowDecodingForNullMissingOrMistypedColumns() throws {
    let directory = try TemporaryDirectory()
    let database = try Database(path: directory.path("db.sqlite"))
    let row = try #require(try database.query("SELECT NULL AS n, 'x' AS s").first)
    #expect(throws: StoreError.self) { try row.int64("n") }
    #expect(throws: StoreError.self) { try row.int64("s") }
    let error = #expect(throws: StoreError.self) { try row.string("nope") }
    #expect(error?.kind == .decoding)
  }

  @Test func aScriptRunsEveryStatementButRefusesArguments() throws {
    let directory = try TemporaryDirectory()
    let database = try Database(path: directory.path("db.sqlite"))
    try database.execute("CREATE TABLE t (x); INSERT INTO t VALUES (1); INSERT INTO t VALUES (2);")
    #expect(try database.query("SELECT count(*) AS c FROM t").first?.int64("c") == 2)
    let error = #expect(throws: StoreError.self) {
      try database.execute("INSERT INTO t VALUES (?); INSERT INTO t VALUES (?)", [1, 2])
    }
    #expect(error?.kind == .misuse)
    #expect(try database.query("SELECT count(*) AS c FROM t").first?.int64("c") == 2)
  }

  @Test func aWrongArgumentCountIsMisuseAndCarriesTheSQL() throws {
    let directory = try TemporaryDirectory()
    let database = try Database(path: directory.path("db.sqlite"))
    let error = #expect(throws: StoreError.self) { try database.query("SELECT ?, ?", [1]) }
    #expect(error?.kind == .misuse)
    #expect(error?.sql == "SELECT ?, ?")
  }

  @Test func aSyntaxErrorNamesTheSQLAndThePath() throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("db.sqlite")
    let database = try Database(path: path)
    let error = #expect(throws: StoreError.self) { try database.execute("SELEKT 1") }
    #expect(error?.kind == .other)
    #expect(error?.description.contains("SELEKT 1") == true)
    #expect(error?.description.contains(path) == true)
  }

  @Test func aBrokenConstraintIsReportedAsConstraint() throws {
    let directory = try TemporaryDirectory()
    let database = try Database(path: directory.path("db.sqlite"))
    try database.execute("CREATE TABLE t (x INTEGER PRIMARY KEY)")
    try database.execute("INSERT INTO t VALUES (1)")
    #expect(database.changes == 1)
    let error = #expect(throws: StoreError.self) {
      try database.execute("INSERT INTO t VALUES (1)")
    }
    #expect(error?.kind == .constraint)
    #expect(error?.resultCode == 19)
  }
}
