import Foundation

/// A parsed `Retry-After` header (RFC 9110, section 10.2.3): a delay in seconds or an
/// HTTP date.
public enum RetryAfter {
  /// The delay the header asks for, measured from `now`; nil when the value is malformed.
  /// A date in the past gives zero.
  public static func delay(from value: String, now: Date = Date()) -> Duration? {
    let text = Substring(value).trimmingSpaces()
    if let seconds = Int64(digits: text) {
      return .seconds(seconds)
    }
    guard let date = HTTPDate.parse(String(text)) else { return nil }
    let interval = max(0, date.timeIntervalSince(now))
    return .milliseconds(Int64(interval * 1000))
  }
}

/// The IMF-fixdate format of HTTP dates (RFC 9110, section 5.6.7), e.g.
/// `Sun, 06 Nov 1994 08:49:37 GMT`.
public enum HTTPDate {
  /// Parses an IMF-fixdate; nil when malformed.
  public static func parse(_ text: String) -> Date? {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "GMT")
    formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
    return formatter.date(from: text)
  }
}
