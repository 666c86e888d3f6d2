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

  /// Records `reason` for each of `ids` still `downloading`, in one `UPDATE`: the runner marks
  /// the downloads it runs whose bytes have not come yet `starting` at its turn, all at once.
  /// Counts in ``revision`` as ``setWaitReason(_:id:)`` does.
  package func setWaitReason(_ reason: ContentWaitReason?, ids: [String]) throws(StoreError) {
    guard !ids.isEmpty else { return }
    defer { if reason != nil, reason != .starting { didWrite() } }
    try database.execute(
      """
      UPDATE contents SET wait_reason = ?, retry_at = ?, updated_at = ?
      WHERE state = ? AND id IN (SELECT value FROM json_each(?))
      """,
      [
        SQLValue(reason?.name), SQLValue(reason?.retryAt.map(StoredTime.milliseconds)),
        .integer(StoredTime.milliseconds(Date())), ContentState.downloading.sqlValue,
        .jsonArray(ids),
      ])
  }
}
