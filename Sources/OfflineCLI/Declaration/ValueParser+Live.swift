import Foundation

extension ValueParser where Value == Duration {
  /// A length of time: seconds (`90`), or numbers with `h`, `m` and `s` (`1h30m`, `45s`).
  static var duration: ValueParser<Duration> {
    ValueParser("a duration such as 90, 45s, 20m or 1h30m") { text in
      LiveArguments.seconds(in: text).map { .milliseconds(Int64(($0 * 1000).rounded())) }
    }
  }
}

extension ValueParser where Value == Date {
  /// A wall time: ISO 8601 with its zone (`2026-12-07T18:00:00Z`), or `HH:MM[:SS]` in the
  /// local zone, the next such time from now.
  static var wallTime: ValueParser<Date> {
    ValueParser("a time such as 18:30 or 2026-12-07T18:30:00Z") { text in
      LiveArguments.date(from: text, now: Date())
    }
  }
}

/// How `--record-for` and `--record-until` read their values.
enum LiveArguments {
  /// Seconds in `text` (`90`, `45s`, `20m`, `1h30m`), at most 30 days; nil when it is none.
  static func seconds(in text: String) -> Double? {
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

  /// The wall time `text` names (ISO 8601 with a zone, or the next `HH:MM[:SS]` after
  /// `now` in the local zone); nil when it names none.
  static func date(from text: String, now: Date) -> Date? {
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
