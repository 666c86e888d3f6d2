import Foundation
import HexDigits
import OfflineHTTP

extension ValueParser where Value == String {
  /// Any text.
  static var string: ValueParser<String> { ValueParser(completion: .none) { $0 } }
  /// A file's path (shells offer file names).
  static var file: ValueParser<String> { ValueParser(completion: .file) { $0 } }
  /// A folder's path (shells offer folder names).
  static var directory: ValueParser<String> { ValueParser(completion: .directory) { $0 } }

  /// A SHA-256 in hexadecimal.
  static var sha256: ValueParser<String> {
    ValueParser("64 hexadecimal digits") {
      ASCIIHex.isDigits($0, count: 64) ? $0 : nil
    }
  }
}

extension ValueParser where Value == Int {
  /// A whole number from `minimum` to `maximum`; above the maximum it says "at most".
  static func integer(atLeast minimum: Int = .min, atMost maximum: Int = .max)
    -> ValueParser<Int>
  {
    let expectation =
      switch (minimum, maximum) {
      case (.min, .max): "a whole number"
      case (0, .max): "a whole number (0 or more)"
      case (1, .max): "a whole number above 0"
      case (_, .max): "a whole number of at least \(minimum)"
      default: "a whole number from \(minimum) to \(maximum)"
      }
    return ValueParser { (text: String) throws(ValueError) -> Int in
      guard let value = Int(text), value >= minimum else { throw .expected(expectation) }
      guard value <= maximum else { throw .expected("at most \(maximum)") }
      return value
    }
  }
}

extension ValueParser where Value == ByteCount {
  /// A size as people write it: 1048576, 512K, 100M, 1G (powers of 1024).
  static var byteCount: ValueParser<ByteCount> {
    ValueParser("a size, such as 0, 512K, 100M or 1G") { ByteCount(parsing: $0) }
  }
}

extension ValueParser where Value == Duration {
  /// Whole seconds above 0.
  static var wholeSeconds: ValueParser<Duration> {
    ValueParser("whole seconds above 0") { text in
      Int(text).flatMap { $0 > 0 ? .seconds($0) : nil }
    }
  }

  /// Seconds, with a fraction, from 0 to `maximum`.
  static func seconds(upTo maximum: Double) -> ValueParser<Duration> {
    ValueParser("seconds (0 to \(Int(maximum)))") { text in
      guard let seconds = Double(text), seconds.isFinite, seconds >= 0, seconds <= maximum
      else { return nil }
      return .milliseconds(Int64((seconds * 1000).rounded()))
    }
  }
}

extension ValueParser where Value == URL {
  /// An absolute http or https URL with a host.
  static var httpURL: ValueParser<URL> {
    ValueParser("an http or https URL") { text in
      URL(string: text).flatMap { $0.isHTTPWithHost ? $0 : nil }
    }
  }
}

extension ValueParser {
  /// One of an enumeration's raw values; shells offer them all.
  static func choice(_ type: Value.Type) -> ValueParser<Value>
  where Value: RawRepresentable & CaseIterable, Value.RawValue == String {
    let names = Value.allCases.map(\.rawValue)
    let expectation =
      "one of " + names.dropLast().joined(separator: ", ") + " or " + (names.last ?? "")
    return ValueParser(expectation, completion: .values(names)) { Value(rawValue: $0) }
  }
}
