import Foundation

/// Digests and small helpers the suites share.
enum MetalinkSamples {
  /// SHA-256 of the 13 bytes `offline copy\n`.
  static let sha256 = "f657082b86306b77b29f8fe2d335e3a99aa91daea16de1343c50787f5835d920"
  /// SHA-512 of the same bytes.
  static let sha512 =
    "e4f8b01f7bf7a5a716e763dc450978eacee82b4134fb0baf3d4176283d003ca66fa2da90a5bfd1788cd2b0ec438a3c101d688d0d7f3cf18afdd533411a92a3ef"
  /// SHA-1 of the same bytes.
  static let sha1 = "db65a3fd96655c5ba2acd5fd4459568c6f141a76"
  /// MD5 of the same bytes.
  static let md5 = "698b6dce71bf028ce073894bd6bea27c"

  /// A SHA-256 digest made of one repeated byte, for piece lists.
  static func pieceHash(_ byte: Int) -> String {
    String(repeating: String(format: "%02x", byte & 0xFF), count: 32)
  }

  /// A Metalink 4 document around `inner` (one or more `file` elements).
  static func meta4(_ inner: String) -> String {
    """
    <?xml version="1.0" encoding="UTF-8"?>
    <metalink xmlns="urn:ietf:params:xml:ns:metalink">
    \(inner)
    </metalink>
    """
  }

  /// A Metalink 4 document with one file named `name`, one https URL and `inner`.
  static func oneFile(name: String = "data.bin", _ inner: String = "") -> String {
    meta4(
      """
      <file name="\(name)">
        \(inner)
        <url>https://origin.example.org/data.bin</url>
      </file>
      """)
  }
}
