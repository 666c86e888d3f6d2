import Foundation

/// The dates of the two formats: RFC 3339 in Metalink 4, RFC 822 in Metalink 3. A date that
/// does not parse is left out; it decides nothing about the download.
enum MetalinkDates {
  /// An RFC 3339 date-time (`2024-03-01T12:00:00Z`, fractional seconds allowed).
  static func rfc3339(_ text: String) -> Date? {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime]
    if let date = formatter.date(from: text) { return date }
    formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    return formatter.date(from: text)
  }

  /// An RFC 822 date (`Fri, 01 Mar 2024 12:00:00 +0000` or `... GMT`).
  static func rfc822(_ text: String) -> Date? {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "UTC")
    for format in ["EEE, dd MMM yyyy HH:mm:ss Z", "EEE, dd MMM yyyy HH:mm:ss zzz"] {
      formatter.dateFormat = format
      if let date = formatter.date(from: text) { return date }
    }
    return nil
  }
}
