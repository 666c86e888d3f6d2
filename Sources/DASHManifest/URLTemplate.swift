/// A `SegmentTemplate` URL template, checked and split into parts (ISO/IEC 23009-1
/// §5.3.9.4.4, Table 16): `$RepresentationID$`, `$Number$`, `$Bandwidth$`, `$Time$` and (5th
/// edition) `$SubNumber$`, all but the first with an optional printf-style width
/// (`$Number%05d$`), and `$$` for a `$`.
///
/// ```swift
/// let template = try URLTemplate("seg-$Number%05d$.m4s")
/// template.expand(.init(representationID: "v1", number: 7))  // "seg-00007.m4s"
/// ```
public struct URLTemplate: Sendable, Equatable {
  /// An identifier a template may hold.
  public enum Identifier: String, Sendable, Equatable, CaseIterable {
    /// `$RepresentationID$`: `Representation@id`.
    case representationID = "RepresentationID"
    /// `$Number$`: the segment's number.
    case number = "Number"
    /// `$Bandwidth$`: `Representation@bandwidth`.
    case bandwidth = "Bandwidth"
    /// `$Time$`: the segment's start time in timescale units.
    case time = "Time"
    /// `$SubNumber$`: the segment's place in its segment sequence (`S@k`, ISO/IEC 23009-1
    /// 5th edition). `SegmentResolver` refuses a template that uses it.
    case subNumber = "SubNumber"
  }

  /// One piece of a template.
  public enum Part: Sendable, Equatable {
    /// Text copied as is (`$$` already turned into `$`).
    case literal(String)
    /// An identifier, with its format: `width` digits at least, in base 8, 10 or 16.
    case identifier(Identifier, width: Int, radix: Int, uppercase: Bool)
  }

  /// The values to put in a template.
  public struct Values: Sendable, Equatable {
    /// The value of `$RepresentationID$`.
    public var representationID: String
    /// The value of `$Bandwidth$`.
    public var bandwidth: Int
    /// The value of `$Number$`.
    public var number: UInt64
    /// The value of `$Time$`.
    public var time: UInt64
    /// The value of `$SubNumber$`.
    public var subNumber: UInt64

    /// Creates values; those a template does not use can stay 0.
    public init(
      representationID: String, bandwidth: Int = 0, number: UInt64 = 0, time: UInt64 = 0,
      subNumber: UInt64 = 0
    ) {
      self.representationID = representationID
      self.bandwidth = bandwidth
      self.number = number
      self.time = time
      self.subNumber = subNumber
    }
  }

  /// The widest format this module accepts; wider ones are refused rather than allocated.
  public static let maximumWidth = 32

  /// The template as written.
  public let text: String
  /// Its parts, in order.
  public let parts: [Part]

  /// Splits `text` into parts.
  ///
  /// - Throws: An `MPDError` of kind `invalidTemplate` at path "" (the parser fills in
  ///   where) for an unterminated `$`, an unknown identifier, a malformed format, a format
  ///   on `$RepresentationID$`, or a width above `maximumWidth`.
  public init(_ text: String) throws {
    self.text = text
    var parts: [Part] = []
    var literal = ""
    var rest = Substring(text)
    while let dollar = rest.firstIndex(of: "$") {
      literal += rest[..<dollar]
      let afterDollar = rest.index(after: dollar)
      guard let close = rest[afterDollar...].firstIndex(of: "$") else {
        throw URLTemplate.error("'\(text)' has a '$' that is never closed.")
      }
      let name = rest[afterDollar..<close]
      rest = rest[rest.index(after: close)...]
      if name.isEmpty {
        literal += "$"
        continue
      }
      if !literal.isEmpty { parts.append(.literal(literal)) }
      literal = ""
      parts.append(try URLTemplate.identifier(name, in: text))
    }
    literal += rest
    if !literal.isEmpty { parts.append(.literal(literal)) }
    self.parts = parts
  }

  /// The identifiers the template uses.
  public var identifiers: Set<Identifier> {
    Set(
      parts.compactMap {
        if case .identifier(let identifier, _, _, _) = $0 { return identifier }
        return nil
      })
  }

  /// The template with `values` put in.
  public func expand(_ values: Values) -> String {
    var result = ""
    for part in parts {
      switch part {
      case .literal(let text): result += text
      case .identifier(.representationID, _, _, _): result += values.representationID
      case .identifier(let identifier, let width, let radix, let uppercase):
        let digits: String
        switch identifier {
        case .bandwidth: digits = String(values.bandwidth, radix: radix, uppercase: uppercase)
        case .time: digits = String(values.time, radix: radix, uppercase: uppercase)
        case .subNumber: digits = String(values.subNumber, radix: radix, uppercase: uppercase)
        default: digits = String(values.number, radix: radix, uppercase: uppercase)
        }
        result += String(repeating: "0", count: max(0, width - digits.count)) + digits
      }
    }
    return result
  }

  /// The most bytes `expand(_:)` can give with `values`' `$RepresentationID$` and
  /// `$Bandwidth$`, whatever the number, time and sub-number: each of those counts as many
  /// digits as `UInt64.max` has in its base, or its width when wider.
  public func longestExpansion(_ values: Values) -> Int {
    var total = 0
    for part in parts {
      switch part {
      case .literal(let text): total += text.utf8.count
      case .identifier(.representationID, _, _, _): total += values.representationID.utf8.count
      case .identifier(.bandwidth, let width, let radix, _):
        total += max(width, String(values.bandwidth, radix: radix).utf8.count)
      case .identifier(_, let width, let radix, _):
        total += max(width, radix == 8 ? 22 : radix == 16 ? 16 : 20)
      }
    }
    return total
  }

  /// One `$...$` identifier with its optional `%0<width><d|i|u|x|X|o>` format.
  private static func identifier(_ name: Substring, in text: String) throws -> Part {
    let percent = name.firstIndex(of: "%")
    let base = percent.map { name[..<$0] } ?? name
    guard let identifier = Identifier(rawValue: String(base)) else {
      let known = Identifier.allCases.map { "$\($0.rawValue)$" }.joined(separator: ", ")
      throw error("'\(text)' uses $\(base)$, which is not one of \(known) or $$.")
    }
    guard let percent else { return .identifier(identifier, width: 0, radix: 10, uppercase: false) }
    guard identifier != .representationID else {
      throw error("'\(text)' gives $RepresentationID$ a format, which the standard forbids.")
    }
    var format = name[name.index(after: percent)...]
    guard let conversion = format.popLast(), "diuxXo".contains(conversion) else {
      throw error("'\(text)' has a format for $\(base)$ that does not end in d, x, X or o.")
    }
    if format.first == "0" { format = format.dropFirst() }
    guard format.allSatisfy(\.isASCIIDigit) else {
      throw error("'\(text)' has a malformed width for $\(base)$.")
    }
    let width = format.isEmpty ? 0 : Int(format) ?? Int.max
    guard width <= maximumWidth else {
      throw error("'\(text)' asks for a width above \(maximumWidth) digits for $\(base)$.")
    }
    let radix = conversion == "o" ? 8 : (conversion == "x" || conversion == "X") ? 16 : 10
    return .identifier(identifier, width: width, radix: radix, uppercase: conversion == "X")
  }

  private static func error(_ message: String) -> MPDError {
    MPDError(.invalidTemplate, at: "", message)
  }
}
