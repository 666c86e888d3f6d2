import Foundation
import OfflineKit

/// How `offline cache ls` and `offline cache stats` print: a table or text for people,
/// JSON for programs.
enum CacheListing {
  /// One entry in `cache ls --json`.
  struct Item: Encodable {
    let url: String
    let key: String
    let path: String
    let size: Int64
    let lastUsedAt: String
    let validatedAt: String
    let stale: Bool

    init(_ entry: FileCache.Entry) {
      url = entry.url.absoluteString
      key = entry.key
      path = entry.fileURL.path
      size = entry.size
      lastUsedAt = CacheListing.timestamp(entry.lastUsedAt)
      validatedAt = CacheListing.timestamp(entry.validatedAt)
      stale = entry.isStale
    }
  }

  /// `cache stats --json`.
  struct Summary: Encodable {
    let entries: Int
    let bytes: Int64
    let limit: Int64
    let pinnedBytes: Int64
    let storeQuota: Int64?
    let availableBytes: Int64?

    init(_ stats: FileCache.Statistics) {
      entries = stats.entryCount
      bytes = stats.bytes
      limit = stats.sizeLimit
      pinnedBytes = stats.pinnedBytes
      storeQuota = stats.storeQuota
      availableBytes = stats.availableBytes
    }
  }

  static func json(_ entries: [FileCache.Entry]) -> String {
    encode(entries.map(Item.init)) ?? "[]"
  }

  static func json(_ stats: FileCache.Statistics) -> String {
    encode(Summary(stats)) ?? "{}"
  }

  static func table(_ entries: [FileCache.Entry]) -> String {
    var lines = ["SIZE        LAST USED             STALE  URL"]
    for entry in entries {
      lines.append(
        ByteCount.format(entry.size).padding(toLength: 11, withPad: " ", startingAt: 0) + " "
          + timestamp(entry.lastUsedAt).padding(toLength: 21, withPad: " ", startingAt: 0) + " "
          + (entry.isStale ? "yes" : "no").padding(toLength: 6, withPad: " ", startingAt: 0) + " "
          + entry.url.redactedForDisplay)
    }
    return lines.joined(separator: "\n")
  }

  static func text(_ stats: FileCache.Statistics) -> String {
    var lines = [
      "Entries:         \(stats.entryCount)",
      "Size:            \(ByteCount.format(stats.bytes)) of \(ByteCount.format(stats.sizeLimit))",
      "Offline content: \(ByteCount.format(stats.pinnedBytes)) (pinned, not counted)",
    ]
    if let quota = stats.storeQuota { lines.append("Store quota:     \(ByteCount.format(quota))") }
    if let free = stats.availableBytes {
      lines.append("Free on disk:    \(ByteCount.format(free))")
    }
    return lines.joined(separator: "\n")
  }

  static func timestamp(_ date: Date) -> String {
    date.formatted(.iso8601)
  }

  private static func encode<T: Encodable>(_ value: T) -> String? {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return (try? encoder.encode(value)).flatMap { String(data: $0, encoding: .utf8) }
  }
}
