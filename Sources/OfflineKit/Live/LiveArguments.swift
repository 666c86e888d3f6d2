import Foundation

/// How a live recording's durations and times read as text: `--record-for`, `--split` and
/// `--record-until` of `offline add` and `get`, and the same fields of `offline serve`'s
/// add API, so both take the same values.
package enum LiveArguments {
  /// Seconds in `text` (`90`, `45s`, `20m`, `1h30m`), at most 30 days; nil when it is none.
  package static func seconds(in text: String) -> Double? {
    if let plain = Double(text) { return plain >= 0 && plain <= 2_592_000 ? plain : nil }
    var total = 0.0
    var digits = ""
    for character in text.lowercased() {
      if character.isNumber || character == "." {
        digits.append(character)
        continue
      }
      let unit: Double
      switch character {
      case "h": unit = 3600
      case "m": unit = 60
      case "s": unit = 1
      default: return nil
      }
      guard let value = Double(digits) else { return nil }
      total += value * unit
      digits = ""
    }
    guard digits.isEmpty, total > 0, total <= 2_592_000 else { return nil }
    return total
  }

  /// The length of time `text` names (``seconds(in:)``), to the millisecond; nil when it
  /// names none.
  package static func duration(in text: String) -> Duration? {
    seconds(in: text).map { .milliseconds(Int64(($0 * 1000).rounded())) }
  }

  /// The wall time `text` names (ISO 8601 with a zone, or the next `HH:MM[:SS]` after
  /// `now` in the local zone); nil when it names none.
  package static func date(from text: String, now: Date) -> Date? {
    if let date = ISO8601DateFormatter().date(from: text) { return date }
    let parts = text.split(separator: ":").map { Int($0) }
    guard (2...3).contains(parts.count), parts.allSatisfy({ $0 != nil }),
      let hour = parts[0], let minute = parts[1], (0..<24).contains(hour),
      (0..<60).contains(minute)
    else { return nil }
    let second = parts.count == 3 ? parts[2] ?? 0 : 0
    guard (0..<60).contains(second) else { return nil }
    var wanted = DateComponents()
    wanted.hour = hour
    wanted.minute = minute
    wanted.second = second
    return Calendar.current.nextDate(
      after: now, matching: wanted, matchingPolicy: .nextTime, direction: .forward)
  }
}
