import Foundation
import OfflineHTTP

/// The name of one cache entry: the SHA-256 of the full URL (or of a custom key), never
/// anything the server or the URL's path chooses, so two URLs never share a file and no
/// name can leave the cache folder.
struct CacheKey: Sendable, Hashable {
  /// 64 lowercase hex digits.
  let hash: String

  /// The key of `url`, or of `custom` when given (for URLs whose tokens rotate).
  init(url: URL, custom: String?) throws(FileCache.Error) {
    self.init(hashing: custom.map { "key:" + $0 } ?? "url:" + url.absoluteString)
  }

  /// Throws unless `url` is an http or https URL with a host. Checked before a download,
  /// not on the hit path: a URL that is cached was checked when it was downloaded.
  static func validate(_ url: URL) throws(FileCache.Error) {
    guard url.isHTTPWithHost else {
      throw FileCache.Error(.invalidURL(url.redactedForDisplay))
    }
  }

  /// The key of any text: its SHA-256 in hex (on the hit path, so done in one call).
  init(hashing text: String) {
    let digest = Array(text.utf8).withUnsafeBytes { SHA256Engine.digest($0) }
    var hex = [UInt8]()
    hex.reserveCapacity(64)
    for byte in digest {
      hex.append(Self.digits[Int(byte >> 4)])
      hex.append(Self.digits[Int(byte & 0x0f)])
    }
    hash = String(decoding: hex, as: UTF8.self)
  }

  private static let digits = Array("0123456789abcdef".utf8)

  /// `<directory>/<first two digits>/<hash>`: 256 folders keep each one small.
  func path(in directory: String) -> String {
    Self.path(of: hash, in: directory)
  }

  static func path(of hash: String, in directory: String) -> String {
    directory + "/" + hash.prefix(2) + "/" + hash
  }
}
