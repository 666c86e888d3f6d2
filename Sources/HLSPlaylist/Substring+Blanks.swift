extension Substring {
  /// The text without leading and trailing spaces, tabs and carriage returns.
  var trimmingBlanks: Substring {
    let bytes = utf8
    var start = bytes.startIndex
    var end = bytes.endIndex
    while start < end, Self.isBlank(bytes[start]) { start = bytes.index(after: start) }
    while start < end, Self.isBlank(bytes[bytes.index(before: end)]) {
      end = bytes.index(before: end)
    }
    return Substring(bytes[start..<end])
  }

  static func isBlank(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x09 || byte == 0x0D
  }
}

extension String {
  /// The text without leading and trailing spaces, tabs and carriage returns.
  var trimmingBlanks: String { String(Substring(self).trimmingBlanks) }

  /// The text cut to 40 characters for an error message.
  var truncatedForMessage: String {
    count > 40 ? "\"\(prefix(40))...\"" : "\"\(self)\""
  }
}
