import Foundation

extension ContentTable {
  /// A setting of the whole queue, in the `queue_settings` table: nil when it was never set.
  /// A runner in another process notices a change as it notices a pause (the index's
  /// ``externalChangeCounter()``).
  package func queueSetting(_ name: String) throws(StoreError) -> String? {
    try database.query("SELECT value FROM queue_settings WHERE name = ?", [.text(name)])
      .first.map { row throws(StoreError) in try row.string("value") }
  }

  /// Sets the queue setting `name` to `value`, nil removing it.
  package func setQueueSetting(_ name: String, to value: String?) throws(StoreError) {
    if let value {
      try database.execute(
        "INSERT OR REPLACE INTO queue_settings (name, value) VALUES (?, ?)",
        [.text(name), .text(value)])
    } else {
      try database.execute("DELETE FROM queue_settings WHERE name = ?", [.text(name)])
    }
  }
}
