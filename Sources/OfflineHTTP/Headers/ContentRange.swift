/// A parsed `Content-Range` header of a byte range (RFC 9110, section 14.4).
///
/// Either a satisfied range, `bytes 100-199/1000` (the length may be `*`, unknown), or the
/// unsatisfied form of a 416 response, `bytes */1000`.
public enum ContentRange: Sendable, Equatable {
  /// The bytes `first...last` of a representation `completeLength` long, when known.
  case satisfied(first: Int64, last: Int64, completeLength: Int64?)
  /// A 416's statement of the representation's current length.
  case unsatisfied(completeLength: Int64)

  /// Parses a header value; nil when it is not a well-formed byte range.
  public init?(_ value: String) {
    var text = Substring(value).trimmingSpaces()
    guard text.lowercased().hasPrefix("bytes ") else { return nil }
    text = text.dropFirst("bytes ".count).trimmingSpaces()
    guard let slash = text.firstIndex(of: "/") else { return nil }
    let rangePart = text[..<slash]
    let lengthPart = text[text.index(after: slash)...]
    let length: Int64?
    if lengthPart == "*" {
      length = nil
    } else {
      guard let parsed = Int64(digits: lengthPart) else { return nil }
      length = parsed
    }
    if rangePart == "*" {
      guard let length else { return nil }
      self = .unsatisfied(completeLength: length)
      return
    }
    guard let dash = rangePart.firstIndex(of: "-"),
      let first = Int64(digits: rangePart[..<dash]),
      let last = Int64(digits: rangePart[rangePart.index(after: dash)...]),
      first <= last
    else { return nil }
    if let length, last >= length { return nil }
    self = .satisfied(first: first, last: last, completeLength: length)
  }

  /// The complete length of the representation, when the header states it.
  public var completeLength: Int64? {
    switch self {
    case .satisfied(_, _, let length): length
    case .unsatisfied(let length): length
    }
  }
}

extension Int64 {
  /// Parses only ASCII digits (no sign, no spaces), refusing overflow.
  init?(digits: Substring) {
    guard !digits.isEmpty, digits.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }),
      let value = Int64(digits)
    else { return nil }
    self = value
  }
}

extension Substring {
  func trimmingSpaces() -> Substring {
    var text = self
    while text.first == " " || text.first == "\t" { text = text.dropFirst() }
    while text.last == " " || text.last == "\t" { text = text.dropLast() }
    return text
  }
}
