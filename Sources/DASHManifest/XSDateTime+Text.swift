import Foundation

extension XSDateTime {
  /// `date` as an `xs:dateTime` that `date(_:)` reads back to exactly `date`: in UTC
  /// (`2026-12-07T11:00:00.25Z`), or with a zone of ±14:59 when the UTC year would fall
  /// outside 0001...9999 (a value read with a zone can be that close to either end).
  static func text(_ date: Date) -> String {
    let seconds = date.timeIntervalSince1970
    // `Date` keeps its interval from 2001, so the interval from 1970 may be off by a rounding
    // step: try the neighbours of the first candidate until one reads back exactly.
    var candidates = [seconds]
    var up = seconds
    var down = seconds
    for _ in 0..<4 {
      up = up.nextUp
      down = down.nextDown
      candidates += [up, down]
    }
    for candidate in candidates {
      let text = text(seconds: candidate)
      if Self.date(text) == date { return text }
    }
    return text(seconds: seconds)
  }

  /// `seconds` from 1970 as an `xs:dateTime`, the whole seconds and the exact fraction apart.
  private static func text(seconds: Double) -> String {
    guard seconds.isFinite else { return "1970-01-01T00:00:00Z" }
    let year1 = -62_135_596_800.0
    let year10000 = 253_402_300_800.0
    // The widest zone `date(_:)` reads, so a value it read is in 0001...9999 there.
    let widest = 14 * 3_600 + 59 * 60
    let offset = seconds < year1 ? widest : seconds >= year10000 ? -widest : 0
    let local = seconds + Double(offset)
    let whole = local.rounded(.down)
    let fraction = local - whole
    let wholeSeconds = Int(whole)
    let days = Int((Double(wholeSeconds) / 86_400).rounded(.down))
    let secondOfDay = wholeSeconds - days * 86_400
    let (year, month, day) = civilDate(daysSinceEpoch: days)
    var text =
      padded(year, 4) + "-" + padded(month, 2) + "-" + padded(day, 2) + "T"
      + padded(secondOfDay / 3_600, 2) + ":" + padded(secondOfDay / 60 % 60, 2) + ":"
      + padded(secondOfDay % 60, 2)
    if fraction > 0 { text += DecimalText.plain(fraction).dropFirst() }
    return text + zone(offset)
  }

  /// The year, month and day `days` after 1970-01-01.
  private static func civilDate(daysSinceEpoch days: Int) -> (Int, Int, Int) {
    var year = 1970 + Int((Double(days) / 365.2425).rounded(.down))
    while daysSinceEpoch(year: year, month: 1, day: 1) > days { year -= 1 }
    while daysSinceEpoch(year: year + 1, month: 1, day: 1) <= days { year += 1 }
    var month = 1
    while month < 12, daysSinceEpoch(year: year, month: month + 1, day: 1) <= days { month += 1 }
    return (year, month, days - daysSinceEpoch(year: year, month: month, day: 1) + 1)
  }

  /// `Z`, or the offset as `±HH:MM`.
  private static func zone(_ offset: Int) -> String {
    guard offset != 0 else { return "Z" }
    let minutes = abs(offset) / 60
    return (offset < 0 ? "-" : "+") + padded(minutes / 60, 2) + ":" + padded(minutes % 60, 2)
  }

  /// `value` with leading zeros up to `width` digits.
  private static func padded(_ value: Int, _ width: Int) -> String {
    let digits = String(value)
    return String(repeating: "0", count: max(0, width - digits.count)) + digits
  }
}
