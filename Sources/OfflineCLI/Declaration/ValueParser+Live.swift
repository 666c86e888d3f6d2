import Foundation
import OfflineKit

extension ValueParser where Value == Duration {
  /// A length of time: seconds (`90`), or numbers with `h`, `m` and `s` (`1h30m`, `45s`).
  static var duration: ValueParser<Duration> { duration(aboveZero: false) }

  /// A length of time, as ``duration``; with `aboveZero`, `0` is refused (a part or a
  /// silence of no length means nothing).
  static func duration(aboveZero: Bool) -> ValueParser<Duration> {
    ValueParser(
      aboveZero
        ? "a duration above zero such as 90, 45s, 20m or 1h30m"
        : "a duration such as 90, 45s, 20m or 1h30m"
    ) { text in
      LiveArguments.duration(in: text).flatMap { aboveZero && $0 <= .zero ? nil : $0 }
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
