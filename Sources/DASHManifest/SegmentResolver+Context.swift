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

    /// The template's values for this Representation.
    func values(number: UInt64 = 0, time: UInt64 = 0) -> URLTemplate.Values {
      URLTemplate.Values(
        representationID: representation.id, bandwidth: representation.bandwidth,
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

    /// The end of the Period in timescale units, with the presentation time offset.
    func periodEnd(timescale: UInt64, offset: UInt64, element: String) throws -> UInt64 {
      guard let periodDuration else {
        throw MPDError(
          .unsupported, at: path + "/" + element,
          "r=\"-1\" repeats to the end of the Period, whose duration is unknown.")
      }
      let end = Double(offset) + (periodDuration * Double(timescale)).rounded(.up)
      guard end < 18_000_000_000_000_000_000 else {
        throw MPDError(.malformedValue, at: path + "/" + element, "The Period ends too late.")
      }
      return UInt64(end)
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
