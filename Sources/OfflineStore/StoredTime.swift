import Foundation

/// How the index stores times: whole milliseconds since 1970 in an INTEGER column, so a date
/// written and read back compares equal.
enum StoredTime {
  /// `date` as stored.
  static func milliseconds(_ date: Date) -> Int64 {
    Int64((date.timeIntervalSince1970 * 1000).rounded())
  }

  /// The date of a stored value.
  static func date(milliseconds: Int64) -> Date {
    Date(timeIntervalSince1970: Double(milliseconds) / 1000)
  }

  /// `date` rounded as the index stores it.
  static func rounded(_ date: Date) -> Date {
    self.date(milliseconds: milliseconds(date))
  }
}
