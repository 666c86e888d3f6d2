import Foundation

extension SegmentResolver {
  /// What listing one Representation's segments needs.
  struct Context {
    /// The Representation's element path, for errors.
    let path: String
    /// The Representation.
    let representation: Representation
    /// Its resolved base URL.
    let baseURL: URL
    /// The Period's duration in seconds, when known.
    let periodDuration: Double?
    /// The most segments allowed.
    let limit: Int
    /// The most bytes of URLs allowed.
    let urlLimit: Int

    /// The template's values for this Representation (`$Bandwidth$` is checked before a
    /// template that uses it is expanded, see `check(_:name:element:)`).
    func values(number: UInt64 = 0, time: UInt64 = 0) -> URLTemplate.Values {
      URLTemplate.Values(
        representationID: representation.id, bandwidth: representation.bandwidth ?? 0,
        number: number, time: time)
    }

    /// An `Initialization` element: its `sourceURL` (or the base URL) and range.
    func reference(_ initialization: Initialization?) throws -> SegmentReference? {
      guard let initialization else { return nil }
      let url = try initialization.sourceURL.map {
        try SegmentResolver.resolve($0, against: baseURL, at: path + "/Initialization")
      }
      return SegmentReference(url: url ?? baseURL, byteRange: initialization.range)
    }

    /// The number of `duration`-long segments that cover the Period (§5.3.9.5.3).
    func count(duration: UInt64, timescale: UInt64, element: String) throws -> Int {
      guard let periodDuration else {
        throw MPDError(
          .unsupported, at: path + "/" + element,
          "The Period's duration is unknown, so the number of segments is too.")
      }
      let exact = periodDuration * Double(timescale) / Double(duration)
      let rounded = exact.rounded()
      let count = abs(exact - rounded) <= 1e-9 * max(1, exact) ? rounded : exact.rounded(.up)
      guard count.isFinite, count <= Double(limit) else {
        throw tooMany(element, "about \(DecimalText.plain(count.rounded()))")
      }
      return Int(count)
    }

    /// The end of the Period in timescale units, with the presentation time offset (0 when
    /// a negative offset puts it before media time 0).
    func periodEnd(timescale: UInt64, offset: Int64, element: String) throws -> UInt64 {
      guard let periodDuration else {
        throw MPDError(
          .unsupported, at: path + "/" + element,
          "r=\"-1\" repeats to the end of the Period, whose duration is unknown.")
      }
      let end = Double(offset) + (periodDuration * Double(timescale)).rounded(.up)
      guard end < 18_000_000_000_000_000_000 else {
        throw MPDError(.malformedValue, at: path + "/" + element, "The Period ends too late.")
      }
      return UInt64(max(end, 0))
    }

    /// The media time `span` after the presentation time offset `offset` (§5.3.9.5.3: a
    /// segment's media time is its time in the Period plus the offset).
    ///
    /// - Throws: `malformedValue` when it overflows, or when a negative offset puts it before
    ///   media time 0.
    func mediaTime(_ span: UInt64, after offset: Int64, element: String) throws -> UInt64 {
      if offset >= 0 {
        let (time, overflowed) = span.addingReportingOverflow(UInt64(offset))
        guard !overflowed else { throw overflow(element) }
        return time
      }
      guard span >= offset.magnitude else {
        throw MPDError(
          .malformedValue, at: path + "/" + element,
          "presentationTimeOffset \(offset) puts the first segments before media time 0.")
      }
      return span - offset.magnitude
    }

    /// The error for a listing past the bound.
    func tooMany(_ element: String, _ count: String) -> MPDError {
      MPDError(
        .tooManySegments, at: path + "/" + element,
        "It lists \(count) segments; at most \(limit) are allowed.")
    }

    /// The error for times past `UInt64.max`.
    func overflow(_ element: String) -> MPDError {
      MPDError(.malformedValue, at: path + "/" + element, "Segment times or numbers overflow.")
    }
  }
}
