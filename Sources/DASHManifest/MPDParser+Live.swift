import Foundation

extension MPDParser {
  /// The live timing attributes of the `MPD` element and its `UTCTiming` children.
  static func liveTiming(_ element: Located) throws -> LiveTiming {
    LiveTiming(
      availabilityStartTime: try dateTime(element, "availabilityStartTime"),
      publishTime: try dateTime(element, "publishTime"),
      minimumUpdatePeriod: try element.duration("minimumUpdatePeriod"),
      timeShiftBufferDepth: try element.duration("timeShiftBufferDepth"),
      suggestedPresentationDelay: try element.duration("suggestedPresentationDelay"),
      utcTimings: try element.children("UTCTiming").map { timing in
        UTCTiming(
          scheme: UTCTiming.Scheme(uri: try timing.required("schemeIdUri")),
          value: try timing.required("value"))
      })
  }

  /// An `xs:dateTime` attribute.
  private static func dateTime(_ element: Located, _ name: String) throws -> Date? {
    try element.value(name, "a date and time such as 2026-12-07T11:00:00Z", XSDateTime.date)
  }
}
