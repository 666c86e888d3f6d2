import OfflineHTTP

/// What identifies one version of a remote file: its entity tag and modification date.
package struct Validators: Sendable, Equatable {
  /// The `ETag` header as sent.
  public var etag: String?
  /// The `Last-Modified` header as sent.
  public var lastModified: String?

  /// Creates validators.
  public init(etag: String? = nil, lastModified: String? = nil) {
    self.etag = etag
    self.lastModified = lastModified
  }

  /// Reads the validators of a response.
  public init(_ head: HTTPResponseHead) {
    self.init(etag: head.headers["ETag"], lastModified: head.headers["Last-Modified"])
  }

  /// The value to send in `If-Range` so a changed file comes back whole instead of spliced:
  /// a strong entity tag, else the modification date (RFC 9110, section 13.1.5). Nil when
  /// neither can validate a range, and then resuming is not safe.
  public var ifRangeValue: String? {
    if let etag, let tag = EntityTag(etag), !tag.isWeak { return tag.rawValue }
    return lastModified
  }
}
