import HexDigits

/// aria2's GID for a content: 16 hex digits, as aria2 clients expect, derived from the id
/// (FNV-1a, 64 bits), so it stays the same across restarts without being stored.
enum AriaGID {
  /// The GID of content `id`.
  static func of(_ id: String) -> String {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in id.utf8 {
      hash ^= UInt64(byte)
      hash = hash &* 0x0000_0100_0000_01b3
    }
    let text = String(hash, radix: 16)
    return String(repeating: "0", count: 16 - text.count) + text
  }

  /// Whether `text` has the form of a GID.
  static func isWellFormed(_ text: String) -> Bool {
    ASCIIHex.isDigits(text, count: 16)
  }
}
