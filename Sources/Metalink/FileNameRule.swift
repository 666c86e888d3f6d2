/// The rule a Metalink file name must pass: a relative path that cannot leave the output
/// folder (RFC 5854 §4.1.2.1 says a name with `..` or an absolute path MUST be rejected; we
/// also refuse what would be read differently on another system or in a log).
enum FileNameRule {
  /// The longest name taken, in UTF-8 bytes (Linux's PATH_MAX).
  static let maximumLength = 4096
  /// The longest segment taken, in UTF-8 bytes (NAME_MAX on Linux and macOS).
  static let maximumSegmentLength = 255

  /// Why `name` is refused, as the end of a sentence that starts with "The file name ...";
  /// nil when it is safe.
  static func problem(with name: String) -> String? {
    let bytes = Array(name.utf8)
    if bytes.isEmpty { return "is empty" }
    if bytes.count > maximumLength { return "is longer than \(maximumLength) bytes" }
    if bytes.contains(0) { return "has a NUL character" }
    if bytes.contains(where: { $0 < 0x20 || $0 == 0x7F }) { return "has a control character" }
    if bytes.contains(UInt8(ascii: "\\")) {
      return "has a backslash, which Windows reads as a folder separator"
    }
    if bytes[0] == UInt8(ascii: "/") { return "is an absolute path" }
    if bytes.count >= 2, bytes[1] == UInt8(ascii: ":"), isASCIILetter(bytes[0]) {
      return "starts with a drive letter, which Windows reads as an absolute path"
    }
    for segment in bytes.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false) {
      switch Array(segment) {
      case Array("..".utf8): return "has a '..' segment, which could leave the output folder"
      case Array(".".utf8), []: return "has an empty or '.' segment"
      default:
        if segment.count > maximumSegmentLength {
          return "has a part longer than \(maximumSegmentLength) bytes"
        }
      }
    }
    return nil
  }

  private static func isASCIILetter(_ byte: UInt8) -> Bool {
    (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
  }
}
