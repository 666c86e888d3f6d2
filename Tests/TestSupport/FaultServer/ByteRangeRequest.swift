import Foundation

/// One byte range from a `Range` header (RFC 9110 §14.1.2).
enum ByteRangeRequest: Equatable {
  /// `bytes=N-`: from `N` to the end.
  case from(Int)
  /// `bytes=N-M`: `N` through `M`, inclusive.
  case closed(Int, Int)
  /// `bytes=-S`: the last `S` bytes.
  case suffix(Int)

  /// Parses a single-range `Range` value; `nil` for anything else (which gets a 200).
  init?(_ header: String) {
    let trimmed = header.trimmingCharacters(in: .whitespaces)
    guard trimmed.lowercased().hasPrefix("bytes=") else { return nil }
    let spec = trimmed.dropFirst("bytes=".count).trimmingCharacters(in: .whitespaces)
    guard !spec.contains(","), let dash = spec.firstIndex(of: "-") else { return nil }
    let start = spec[..<dash]
    let end = spec[spec.index(after: dash)...]
    let digits = { (part: Substring) in
      !part.isEmpty && part.allSatisfy { $0.isASCII && $0.isNumber }
    }
    switch (digits(start) ? Int(start) : nil, digits(end) ? Int(end) : nil) {
    case (let first?, nil) where end.isEmpty: self = .from(first)
    case (let first?, let last?) where first <= last: self = .closed(first, last)
    case (nil, let length?) where start.isEmpty: self = .suffix(length)
    default: return nil
    }
  }

  /// The bytes selected in an entity of `total` bytes, or `nil` when unsatisfiable.
  func resolve(total: Int) -> Range<Int>? {
    switch self {
    case .from(let first):
      return first < total ? first..<total : nil
    case .closed(let first, let last):
      return first < total ? first..<min(last + 1, total) : nil
    case .suffix(let length):
      return length > 0 && total > 0 ? (total - min(length, total))..<total : nil
    }
  }
}
