/// A `Range` header read against a representation of known length (RFC 9110, 14.2): one
/// byte range is served as 206; several ranges, or syntax we do not read, are ignored (the
/// whole representation is served, as the RFC allows).
enum RangeRequest: Equatable {
  /// Serve everything (no header, several ranges, or one we ignore).
  case whole
  /// Serve the bytes from `first` to `last`, both included.
  case part(first: Int64, last: Int64)
  /// The range starts past the end: 416.
  case unsatisfiable

  /// Reads `header` for a representation of `length` bytes.
  init(header: String?, length: Int64) {
    guard let header else {
      self = .whole
      return
    }
    let text = header.trimmingCharacters(in: .whitespaces)
    guard text.lowercased().hasPrefix("bytes="), !text.contains(",") else {
      self = .whole
      return
    }
    let spec = text.dropFirst("bytes=".count).trimmingCharacters(in: .whitespaces)
    let parts = spec.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
    guard parts.count == 2 else {
      self = .whole
      return
    }
    let firstText = parts[0].trimmingCharacters(in: .whitespaces)
    let lastText = parts[1].trimmingCharacters(in: .whitespaces)
    let digits = { (text: String) in
      !text.isEmpty && text.allSatisfy(\.isASCII) && text.allSatisfy(\.isNumber)
    }
    if firstText.isEmpty {
      // A suffix: the last N bytes.
      guard digits(lastText), let count = Int64(lastText) else {
        self = .whole
        return
      }
      guard count > 0, length > 0 else {
        self = .unsatisfiable
        return
      }
      self = .part(first: max(0, length - count), last: length - 1)
      return
    }
    guard digits(firstText), let first = Int64(firstText) else {
      self = .whole
      return
    }
    var last = length - 1
    if !lastText.isEmpty {
      guard digits(lastText), let value = Int64(lastText), value >= first else {
        self = .whole
        return
      }
      last = min(value, length - 1)
    }
    self = first < length ? .part(first: first, last: last) : .unsatisfiable
  }
}
