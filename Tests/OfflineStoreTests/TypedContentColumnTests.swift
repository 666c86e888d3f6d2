import Foundation
import TestTiming
import Testing

@testable import OfflineStore

/// A content's state, wait reason and options are typed columns: read back as values, an
/// unknown one an error naming the column, and stores made before they were typed still
/// open. Pins issue 12, item 3 ("records are strings": four readers fell back silently to
/// `notDownloaded`).
@Suite(.timed) struct TypedContentColumnTests {
  /// The `contents` table as the code before typed columns left it (migrations v1 to v3),
  /// with rows written as that code wrote them, and one lenient reading it tolerated.
  static func makeStoreOfTheEarlierVersion(in folder: TemporaryDirectory) throws -> URL {
    let directory = folder.url.appending(path: "store", directoryHint: .isDirectory)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let database = try Database(path: directory.appending(path: OfflineIndex.fileName).path)
    try Migrator(Array(ContentTable.migrations.prefix(3))).migrate(database)
    let insert = """
      INSERT INTO contents (id, url, file_name, state, sequence, bytes, wait_reason, retry_at,
        options, created_at, updated_at)
      VALUES (?, ?, 'f.bin', ?, ?, ?, ?, ?, ?, 1000, 2000)
      """
    let rows: [[SQLValue]] = [
      ["queued", "http://h/a", "downloading", 1, 0, "queued", nil, #"{"connections":0}"#],
      ["retrying", "http://h/b", "downloading", 2, 10, "retry", 5000, nil],
      ["retryWithoutTime", "http://h/c", "downloading", 3, 0, "retry", nil, nil],
      ["oldReason", "http://h/d", "downloading", 4, 0, "running", nil, nil],
      ["done", "http://h/e", "downloaded", 5, 42, nil, nil, "not json"],
    ]
    for row in rows { try database.execute(insert, row) }
    return directory
  }

  @Test func aStoreMadeBeforeTypedColumnsOpensWithItsRowsReadAsTheyWere() throws {
    let folder = try TemporaryDirectory()
    let directory = try Self.makeStoreOfTheEarlierVersion(in: folder)

    let index = try OfflineIndex(directory: directory)

    let records = Dictionary(
      uniqueKeysWithValues: try index.contents.all().map { ($0.id, $0) })
    #expect(records.count == 5)
    #expect(records["queued"]?.state == .downloading)
    #expect(records["queued"]?.waitReason == .queued)
    #expect(records["queued"]?.options?.text == #"{"connections":0}"#)
    #expect(records["retrying"]?.waitReason == .retry(at: StoredTime.date(milliseconds: 5000)))
    // Read as due at once before, so due at once now (its last change).
    #expect(
      records["retryWithoutTime"]?.waitReason == .retry(at: StoredTime.date(milliseconds: 2000)))
    #expect(records["oldReason"]?.waitReason == nil, "an unknown reason was read as moving")
    #expect(records["done"]?.state == .downloaded)
    #expect(records["done"]?.options == nil, "text that was not JSON was read as no options")
    #expect(
      try index.contents.runnable(state: .downloading, now: Date(), limit: 10).map(\.id)
        == ["queued", "retrying", "retryWithoutTime", "oldReason"])
  }

  /// A new index holding one content, `a`, in `state`, whose row `update` (SQL) then
  /// changes behind the store's back, as a later version of the program might leave it.
  static func indexWithContentA(in state: ContentState, changedBy update: String) throws -> (
    TemporaryDirectory, OfflineIndex
  ) {
    let folder = try TemporaryDirectory()
    let index = try OfflineIndex(directory: folder.url)
    try index.contents.insert([
      ContentRecord(id: "a", url: "http://h/a", fileName: "a.bin", state: state)
    ])
    try index.database.execute(update)
    return (folder, index)
  }

  @Test func anUnknownWaitReasonWrittenLaterIsAnErrorNamingTheColumnAndTheValue() throws {
    let (folder, index) = try Self.indexWithContentA(
      in: .downloading, changedBy: "UPDATE contents SET wait_reason = 'paused' WHERE id = 'a'")
    defer { withExtendedLifetime(folder) {} }

    let error = #expect(throws: StoreError.self) { try index.contents.record(id: "a") }

    #expect(error?.kind == .decoding)
    #expect(error?.message.contains("wait_reason") == true, "\(error?.message ?? "")")
    #expect(error?.message.contains("'paused'") == true, "\(error?.message ?? "")")
  }

  @Test func optionsThatAreNotJSONAreAnErrorNamingTheColumn() throws {
    let (folder, index) = try Self.indexWithContentA(
      in: .suspended, changedBy: "UPDATE contents SET options = '{oops' WHERE id = 'a'")
    defer { withExtendedLifetime(folder) {} }

    let error = #expect(throws: StoreError.self) { try index.contents.all() }

    #expect(error?.message.contains("options") == true, "\(error?.message ?? "")")
  }

  @Test func everyStateAndReasonIsReadBackAsWritten() throws {
    let folder = try TemporaryDirectory()
    let index = try OfflineIndex(directory: folder.url)
    let at = StoredTime.rounded(Date(timeIntervalSince1970: 1_800_000_000))
    let reasons: [ContentWaitReason?] = [
      nil, .queued, .network, .storage, .retry(at: at), .starting,
    ]
    var records: [ContentRecord] = []
    for (number, state) in ContentState.allCases.enumerated() {
      for (other, reason) in reasons.enumerated() {
        records.append(
          ContentRecord(
            id: "c\(number)-\(other)", url: "http://h/\(number)/\(other)", fileName: "f",
            state: state, options: try StoredJSON(encoding: ["n": number]), waitReason: reason))
      }
    }
    try index.contents.insert(records)

    for record in records {
      let stored = try #require(try index.contents.record(id: record.id))
      #expect(stored.state == record.state)
      #expect(stored.waitReason == record.waitReason)
      #expect(stored.options == record.options)
      #expect(try stored.options?.decoded(as: [String: Int].self) != nil)
    }
  }
}
