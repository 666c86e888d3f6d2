import Foundation
import TestTiming
import Testing

@testable import OfflineStore

@Suite(.timed) struct MigratorTests {
  @Test func migrationsApplyOnceAndAreRecordedInOrder() throws {
    let directory = try TemporaryDirectory()
    let database = try Database(path: directory.path("db.sqlite"))
    let migrator = Migrator([
      Migration("a.v1") { connection throws(StoreError) in
        try connection.execute("CREATE TABLE a (x)")
      },
      Migration("a.v2") { connection throws(StoreError) in
        try connection.execute("INSERT INTO a VALUES (1)")
      },
    ])

    try migrator.migrate(database)
    try migrator.migrate(database)

    #expect(try migrator.appliedMigrations(in: database) == ["a.v1", "a.v2"])
    #expect(try database.query("SELECT x FROM a").count == 1)
    let row = try #require(try database.query("SELECT applied_at FROM schema_migrations").first)
    #expect(abs(try row.double("applied_at") - Date().timeIntervalSince1970) < 60)
  }

  @Test func aMigrationAppendedLaterIsAppliedAlone() throws {
    let directory = try TemporaryDirectory()
    let database = try Database(path: directory.path("db.sqlite"))
    var migrator = Migrator([
      Migration("a.v1") { connection throws(StoreError) in
        try connection.execute("CREATE TABLE a (x); INSERT INTO a VALUES (1)")
      }
    ])
    try migrator.migrate(database)
    migrator.append(
      Migration("a.v2") { connection throws(StoreError) in
        try connection.execute("INSERT INTO a VALUES (2)")
      })
    try migrator.migrate(database)
    #expect(try database.query("SELECT x FROM a").count == 2)
  }

  @Test func aFailingMigrationLeavesNothingBehind() throws {
    let directory = try TemporaryDirectory()
    let database = try Database(path: directory.path("db.sqlite"))
    let migrator = Migrator([
      Migration("good") { connection throws(StoreError) in
        try connection.execute("CREATE TABLE good (x)")
      },
      Migration("bad") { connection throws(StoreError) in
        try connection.execute("CREATE TABLE half (x)")
        try connection.execute("INSERT INTO no_such_table VALUES (1)")
      },
    ])

    #expect(throws: StoreError.self) { try migrator.migrate(database) }

    #expect(try migrator.appliedMigrations(in: database) == ["good"])
    let tables = try database.query("SELECT name FROM sqlite_master WHERE type = 'table'")
      .map { try $0.string("name") }
    #expect(tables.contains("good"))
    #expect(!tables.contains("half"))
  }

  @Test func duplicateNamesAreRefusedBeforeAnythingIsApplied() throws {
    let directory = try TemporaryDirectory()
    let database = try Database(path: directory.path("db.sqlite"))
    let create = Migration("same") { connection throws(StoreError) in
      try connection.execute("CREATE TABLE a (x)")
    }
    let error = #expect(throws: StoreError.self) {
      try Migrator([create, create]).migrate(database)
    }
    #expect(error?.kind == .misuse)
    #expect(try database.query("SELECT name FROM sqlite_master").isEmpty)
  }
}
