import Foundation

extension CacheTable {
  /// One cached file as the index stores it. `OfflineKit` names the file after ``key``.
  package struct Entry: Sendable, Equatable {
    /// The cache key: a hash of the URL, or of a custom key.
    package var key: String
    /// The URL the file was downloaded from.
    package var url: String
    /// The file's length in bytes.
    package var size: Int64
    /// The `ETag` the server sent with it, for revalidation.
    package var etag: String?
    /// The `Last-Modified` the server sent with it, for revalidation.
    package var lastModified: String?
    /// When the file was downloaded or last confirmed unchanged by the server.
    package var validatedAt: Date
    /// When the file was last served.
    package var lastUsedAt: Date

    /// Creates an entry; both dates default to now (rounded to the milliseconds stored).
    package init(
      key: String, url: String, size: Int64, etag: String? = nil, lastModified: String? = nil,
      validatedAt: Date = Date(), lastUsedAt: Date = Date()
    ) {
      self.key = key
      self.url = url
      self.size = size
      self.etag = etag
      self.lastModified = lastModified
      self.validatedAt = StoredTime.rounded(validatedAt)
      self.lastUsedAt = StoredTime.rounded(lastUsedAt)
    }
  }

  /// What a store holds, in bytes, as its index knows it.
  package struct StoreUsage: Sendable, Equatable {
    /// The cache's files.
    package var cacheBytes: Int64
    /// The offline contents' files, downloaded or partial.
    package var contentBytes: Int64

    /// Everything.
    package var totalBytes: Int64 { cacheBytes + contentBytes }
  }

  static func arguments(_ entry: Entry) -> [SQLValue] {
    [
      .text(entry.key), .text(entry.url), .integer(entry.size), SQLValue(entry.etag),
      SQLValue(entry.lastModified), .integer(StoredTime.milliseconds(entry.validatedAt)),
      .integer(StoredTime.milliseconds(entry.lastUsedAt)),
    ]
  }

  static func entry(from row: Row) throws(StoreError) -> Entry {
    Entry(
      key: try row.string("key"), url: try row.string("url"), size: try row.int64("size"),
      etag: try row.stringOrNil("etag"), lastModified: try row.stringOrNil("last_modified"),
      validatedAt: StoredTime.date(milliseconds: try row.int64("validated_at")),
      lastUsedAt: StoredTime.date(milliseconds: try row.int64("last_used_at")))
  }

}
