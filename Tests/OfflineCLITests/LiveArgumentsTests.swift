import Foundation
import OfflineKit
import Testing

@testable import OfflineCLI

/// How `--record-for` and `--record-until` read their values.
@Suite(.timed) struct LiveArgumentsTests {
  @Test func aDurationIsSecondsOrHoursMinutesAndSeconds() {
    #expect(LiveArguments.seconds(in: "90") == 90)
    #expect(LiveArguments.seconds(in: "45s") == 45)
    #expect(LiveArguments.seconds(in: "20m") == 1200)
    #expect(LiveArguments.seconds(in: "1h30m") == 5400)
    #expect(LiveArguments.seconds(in: "1h30m15s") == 5415)
  }

  @Test func aDurationWithAStrayUnitOrNothingIsRefused() {
    for text in ["", "h", "10x", "1h30", "-5", "0s", "31d"] {
      #expect(LiveArguments.seconds(in: text) == nil, "\(text)")
    }
  }

  @Test func aTimeOfDayIsTheNextOneAfterNow() throws {
    let calendar = Calendar.current
    let now = try #require(
      calendar.date(from: DateComponents(year: 2026, month: 12, day: 7, hour: 10, minute: 0)))
    let later = try #require(LiveArguments.date(from: "18:30", now: now))
    #expect(calendar.component(.day, from: later) == 7)
    #expect(calendar.component(.hour, from: later) == 18)
    let earlier = try #require(LiveArguments.date(from: "09:15:30", now: now))
    #expect(calendar.component(.day, from: earlier) == 8, "a time gone by today is tomorrow's")
    #expect(calendar.component(.second, from: earlier) == 30)
  }

  @Test func anISO8601TimeKeepsItsZone() {
    let date = LiveArguments.date(from: "2026-12-07T18:30:00Z", now: Date())
    #expect(date == Date(timeIntervalSince1970: 1_796_668_200))
    #expect(LiveArguments.date(from: "25:00", now: Date()) == nil)
    #expect(LiveArguments.date(from: "tomorrow", now: Date()) == nil)
  }
}
