import Foundation

extension ContentTable {
  static func arguments(_ record: ContentRecord) -> [SQLValue] {
    [
      .text(record.id), .text(record.url), SQLValue(record.title), SQLValue(record.metadata),
      .text(record.fileName), record.state.sqlValue, .integer(Int64(record.priority)),
      .integer(record.sequence), .integer(record.bytes), SQLValue(record.total),
      .integer(record.totalIsEstimate ? 1 : 0), SQLValue(record.expectedSHA256),
      SQLValue(record.lastError), SQLValue(record.lastErrorKind),
      SQLValue(record.waitReason?.name), .integer(Int64(record.retryCount)),
      SQLValue(record.waitReason?.retryAt.map(StoredTime.milliseconds)),
      .integer(record.pendingCleanup ? 1 : 0), .integer(StoredTime.milliseconds(record.createdAt)),
      .integer(StoredTime.milliseconds(record.updatedAt)), record.options?.sqlValue ?? .null,
      .integer(record.flatFile ? 1 : 0), .integer(record.hasPieceChecks ? 1 : 0),
      .integer(record.hasSourceReports ? 1 : 0),
    ]
  }

  static func record(from row: Row) throws(StoreError) -> ContentRecord {
    var record = try ContentRecord(
      id: try row.string("id"), url: try row.string("url"), title: try row.stringOrNil("title"),
      metadata: try row.stringOrNil("metadata"), fileName: try row.string("file_name"),
      state: row.value("state"), priority: Int(try row.int64("priority")),
      sequence: try row.int64("sequence"), bytes: try row.int64("bytes"),
      total: try row.int64OrNil("total"), totalIsEstimate: try row.int64("total_is_estimate") != 0,
      expectedSHA256: try row.stringOrNil("expected_sha256"),
      options: row.valueOrNil("options"),
      lastError: try row.stringOrNil("last_error"),
      lastErrorKind: try row.stringOrNil("last_error_kind"),
      waitReason: waitReason(in: row), retryCount: Int(try row.int64("retry_count")),
      pendingCleanup: try row.int64("pending_cleanup") != 0,
      flatFile: try row.int64("flat_file") != 0,
      createdAt: StoredTime.date(milliseconds: try row.int64("created_at")),
      updatedAt: StoredTime.date(milliseconds: try row.int64("updated_at")))
    record.hasPieceChecks = try row.int64("piece_checks") != 0
    record.hasSourceReports = try row.int64("source_reports") != 0
    return record
  }

  /// The reason in `wait_reason` (with `retry_at` for a retry); an unknown name, or a retry
  /// without its time, is an error naming the column.
  private static func waitReason(in row: Row) throws(StoreError) -> ContentWaitReason? {
    guard let name = try row.stringOrNil("wait_reason") else { return nil }
    let retryAt = try row.int64OrNil("retry_at").map(StoredTime.date(milliseconds:))
    guard let reason = ContentWaitReason(name: name, retryAt: retryAt) else {
      throw row.unknownValue("wait_reason", .text(name), as: ContentWaitReason.self)
    }
    return reason
  }

}
