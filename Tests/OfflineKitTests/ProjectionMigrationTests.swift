import Foundation
import OfflineStore
import TestSupport
import TestTiming
import Testing

@testable import OfflineKit

/// One machine view of a content (issue 37, item 6): the manifest's shareable part has the
/// keys and values of `ContentProjection` (format 1 spelt the error's code `lastErrorKind`,
/// where `ls --json` and the service say `lastErrorCode`), and what earlier versions wrote
/// (format 1 manifests, stores from before typed columns) still opens.
@Suite(.timed) struct ProjectionMigrationTests {
  static func object(_ data: Data) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
  }

  @Test func theManifestSharesTheProjectionsKeysAndValues() async throws {
    let (fixture, content, _) = try await ScriptedOrigin.failedDownload()
    let snapshot = try await content.snapshot
    let projection = try Self.object(JSONEncoder().encode(ContentProjection(snapshot)))
    // Where a manifest goes depends on the content (a folder, the ledger); what it holds
    // is made from the index's record, as here.
    let record = try #require(try fixture.manager.index.contents.record(id: "missing"))
    let manifest = try Self.object(
      JSONEncoder().encode(ContentManifest(record: record, state: .suspended)))
    #expect(manifest["format"] as? Int == ContentManifest.currentFormat)
    #expect(manifest["lastErrorCode"] as? String == "http404")
    #expect(manifest["lastErrorKind"] == nil, "format 1's name is no longer written")
    for key in ContentManifest.sharedKeys.sorted() {
      let shared = manifest[key].map { "\($0)" }
      #expect(shared == projection[key].map { "\($0)" }, "\(key): \(manifest) \(projection)")
    }
    #expect(projection["lastErrorCode"] as? String == "http404")
  }

  /// A manifest written before issue 37 (format 1, the code under `lastErrorKind`) is
  /// adopted by a rebuild with its error's code.
  @Test func aFormat1ManifestIsRebuiltWithItsErrorsCode() async throws {
    let fixture = try ManagerFixture()
    let folder = fixture.contentFolder("old")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let written = #"""
      {"format":1,"id":"old","url":"http://127.0.0.1:9/old.bin","title":"Old","fileName":"old.bin",
      "state":"suspended","priority":0,"sequence":7,"bytes":0,"totalIsEstimate":false,
      "lastError":"The server answered 404 Not Found for http://127.0.0.1:9/old.bin.",
      "lastErrorKind":"http404","createdAt":1700000000000,"files":[],"journal":[]}
      """#
    try Data(written.utf8).write(to: folder.appending(path: ContentManifest.fileName))

    let report = try await fixture.manager.rebuildFromManifests()

    #expect(report.skipped.isEmpty, "\(report.skipped.map(\.reason))")
    #expect(report.restored.map(\.id) == ["old"])
    let snapshot = try await fixture.manager.snapshot(id: "old")
    #expect(snapshot.state == .suspended && snapshot.title == "Old")
    #expect(snapshot.lastError?.httpStatus == 404)
    #expect(ContentProjection(snapshot).lastErrorCode == "http404")
  }

  /// A store whose `contents` table is as the version before typed columns left it
  /// (migrations v1 to v3, no other table) opens through the manager, its contents read
  /// with their states and errors.
  @Test func aStoreOfAnEarlierVersionOpensThroughTheManager() async throws {
    let root = try TemporaryDirectory(prefix: "offlinekit-old-store")
    let store = root.url.appending(path: "store")
    try FileManager.default.createDirectory(at: store, withIntermediateDirectories: true)
    do {
      let database = try Database(path: store.appending(path: OfflineIndex.fileName).path)
      try Migrator(Array(ContentTable.migrations.prefix(3))).migrate(database)
      let insert = """
        INSERT INTO contents (id, url, file_name, state, sequence, bytes, wait_reason,
          last_error, last_error_kind, created_at, updated_at)
        VALUES (?, ?, ?, ?, ?, 0, ?, ?, ?, 1000, 2000)
        """
      let rows: [[SQLValue]] = [
        ["queued", "http://127.0.0.1:9/a.bin", "a.bin", "downloading", 1, "queued", nil, nil],
        [
          "failed", "http://127.0.0.1:9/b.bin", "b.bin", "suspended", 2, nil,
          "The server answered 404 Not Found.", "http404",
        ],
        ["unnamed", "http://127.0.0.1:9/c.bin", "c.bin", "suspended", 3, nil, "It failed.", nil],
      ]
      for row in rows { try database.execute(insert, row) }
    }

    let manager = try OfflineManager(
      directory: store, configuration: ManagerFixture.configuration())
    let projections = try await manager.snapshots().map(ContentProjection.init)

    #expect(projections.map(\.id) == ["queued", "failed", "unnamed"])
    #expect(projections.map(\.state) == ["downloading", "suspended", "suspended"])
    #expect(projections[0].waitReason == "queued")
    #expect(projections[1].lastErrorCode == "http404")
    #expect(projections[2].lastErrorCode == "downloadFailed")
    #expect(projections[2].lastError == "It failed.")
    await manager.close()
  }
}
