import Foundation

/// `xs:dateTime` values as DASH writes them (XML Schema Part 2 §3.2.7):
/// `2026-12-07T11:00:00Z`, `2026-12-07T12:00:00.250+01:00`.
///
/// A value without a time zone is taken as UTC, as players do. Years before 1 and leap
/// seconds are refused.
enum XSDateTime {
  /// The instant `text` stands for, or nil when it is not a date and time.
  static func date(_ text: String) -> Date? {
    var rest = Substring(text)
    guard let year = number(&rest, digits: 4, then: "-"),
      let month = number(&rest, digits: 2, then: "-"),
      let day = number(&rest, digits: 2, then: "T"),
      let hour = number(&rest, digits: 2, then: ":"),
      let minute = number(&rest, digits: 2, then: ":"),
      let second = number(&rest, digits: 2, then: nil)
    else { return nil }
    var fraction = 0.0
    if rest.first == "." {
      let digits = rest.dropFirst().prefix(while: \.isASCIIDigit)
      guard !digits.isEmpty, let value = Double("0." + digits) else { return nil }
      fraction = value
      rest = rest.dropFirst(1 + digits.count)
    }
    guard let offset = zoneOffset(rest) else { return nil }
    guard year >= 1, (1...12).contains(month), (1...daysIn(month, of: year)).contains(day),
      hour < 24 || (hour == 24 && minute == 0 && second == 0 && fraction == 0), minute < 60,
      second < 60
    else { return nil }
    let days = daysSinceEpoch(year: year, month: month, day: day)
    let seconds =
      Double(days) * 86_400 + Double(hour * 3_600 + minute * 60 + second) + fraction
      - Double(offset)
    return Date(timeIntervalSince1970: seconds)
  }

  /// Reads exactly `digits` digits, then the separator `then` when one is given.
  private static func number(_ rest: inout Substring, digits: Int, then: Character?) -> Int? {
    let head = rest.prefix(digits)
    guard head.count == digits, head.allSatisfy(\.isASCIIDigit), let value = Int(head) else {
      return nil
    }
    rest = rest.dropFirst(digits)
    if let then {
      guard rest.first == then else { return nil }
      rest = rest.dropFirst()
    }
    return value
  }

  /// The zone's offset from UTC in seconds: 0 for none or `Z`, else `±HH:MM`.
  private static func zoneOffset(_ text: Substring) -> Int? {
    if text.isEmpty || text == "Z" { return 0 }
    guard let sign = text.first, sign == "+" || sign == "-" else { return nil }
    var rest = text.dropFirst()
    guard let hours = number(&rest, digits: 2, then: ":"),
      let minutes = number(&rest, digits: 2, then: nil), rest.isEmpty, hours <= 14,
      minutes < 60
    else { return nil }
    let offset = hours * 3_600 + minutes * 60
    return sign == "-" ? -offset : offset
  }

  /// The days of `month` in `year` (proleptic Gregorian calendar).
  static func daysIn(_ month: Int, of year: Int) -> Int {
    switch month {
    case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
    case 4, 6, 9, 11: 30
    default: 31
    }
  }

  /// Days from 1970-01-01 to the given date: whole years of 365 days, the leap days before
  /// the year, and the days of the months before the month.
  static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int {
    let before = year - 1
    let leapDays = before / 4 - before / 100 + before / 400
    let leapDaysTo1970 = 1969 / 4 - 1969 / 100 + 1969 / 400
    var days = (year - 1970) * 365 + (leapDays - leapDaysTo1970)
    for earlier in stride(from: 1, to: month, by: 1) { days += daysIn(earlier, of: year) }
    return days + day - 1
  }
}
