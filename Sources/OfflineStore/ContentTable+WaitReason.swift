import Foundation

extension ContentTable {
  /// Records why the content `id` is not moving (nil: it moves) in one cached `UPDATE` of
  /// its wait columns, without reading the row first: the runner's hot path, which marks
  /// every content it launches `starting` and clears that when its bytes come. The other
  /// columns are left as they are, whatever another writer did to them meanwhile. Does
  /// nothing for an unknown id.
  ///
  /// A wait (`network`, `storage`, a retry) counts in ``revision``; `starting` and nil do
  /// not: they mark a content the runner launches or runs, which is never among the rows
  /// that may start.
  package func setWaitReason(_ reason: ContentWaitReason?, id: String) throws(StoreError) {
    defer { if reason != nil, reason != .starting { didWrite() } }
    try database.execute(
      "UPDATE contents SET wait_reason = ?, retry_at = ?, updated_at = ? WHERE id = ?",
      [
        SQLValue(reason?.name), SQLValue(reason?.retryAt.map(StoredTime.milliseconds)),
        .integer(StoredTime.milliseconds(Date())), .text(id),
      ])
  }
}
