import Foundation

/// The IMF-fixdate format of HTTP dates (RFC 9110, section 5.6.7), e.g.
/// `Sun, 06 Nov 1994 08:49:37 GMT`: read and written.
public enum HTTPDate {
  /// Parses an IMF-fixdate; nil when malformed.
  ///
  /// Parsed by hand, byte by byte: `DateFormatter` traps on some non-ASCII input (found by
  /// `scripts/fuzz headers`), and a header is whatever the server sends.
  public static func parse(_ text: String) -> Date? {
    let bytes = Array(text.utf8)
    guard bytes.count == 29, bytes[3] == UInt8(ascii: ","), bytes[4] == 32, bytes[7] == 32,
      bytes[11] == 32, bytes[16] == 32, bytes[19] == UInt8(ascii: ":"),
      bytes[22] == UInt8(ascii: ":"), bytes[25] == 32,
      String(decoding: bytes[26...], as: UTF8.self) == "GMT",
      days.contains(String(decoding: bytes[0..<3], as: UTF8.self)),
      let monthIndex = months.firstIndex(of: String(decoding: bytes[8..<11], as: UTF8.self)),
      let day = number(bytes[5..<7]), let year = number(bytes[12..<16]),
      let hour = number(bytes[17..<19]), let minute = number(bytes[20..<22]),
      let second = number(bytes[23..<25]),
      (1...31).contains(day), hour < 24, minute < 60, second < 61
    else { return nil }
    let month = monthIndex + 1
    guard day <= daysIn(month: month, year: year) else { return nil }
    // Days since 1970-01-01 (the civil-from-days inverse, proleptic Gregorian).
    let y = month <= 2 ? year - 1 : year
    let era = y / 400
    let yearOfEra = y - era * 400
    let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    let days = era * 146_097 + dayOfEra - 719_468
    let seconds = ((days * 24 + hour) * 60 + minute) * 60 + second
    return Date(timeIntervalSince1970: TimeInterval(seconds))
  }

  /// `seconds` since 1970 as an IMF-fixdate (a `Last-Modified` of our own).
  public static func format(secondsSince1970 seconds: Int) -> String {
    var time = time_t(seconds)
    var parts = tm()
    gmtime_r(&time, &parts)
    func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
    // `tm_wday` counts from Sunday.
    let day = days[(Int(parts.tm_wday) + 6) % 7]
    return "\(day), \(two(parts.tm_mday)) \(months[Int(parts.tm_mon)])"
      + " \(parts.tm_year + 1900) \(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec))"
      + " GMT"
  }

  private static let days = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
  private static let months = [
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
  ]

  private static func number(_ digits: ArraySlice<UInt8>) -> Int? {
    var value = 0
    for digit in digits {
      guard digit >= 48 && digit <= 57 else { return nil }
      value = value * 10 + Int(digit - 48)
    }
    return value
  }

  private static func daysIn(month: Int, year: Int) -> Int {
    switch month {
    case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
    case 4, 6, 9, 11: 30
    default: 31
    }
  }
}
