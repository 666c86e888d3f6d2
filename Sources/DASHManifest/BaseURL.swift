/// A `BaseURL` element (ISO/IEC 23009-1 §5.6.4) with the attributes that rank alternatives:
/// several at one level are the same content at several places (CDNs), and ETSI TS 103 285
/// §10.8 (DVB-DASH) says which to try first with `dvb:priority` (lower first) and, among
/// equal priorities, how to share the load with `dvb:weight`.
public struct BaseURL: Sendable, Equatable {
  /// The element's text, as written (trimmed): absolute or relative to the level above.
  public var url: String
  /// `@serviceLocation`: a name for the place that serves it (DVB: one per CDN).
  public var serviceLocation: String?
  /// `@dvb:priority`: lower values are tried first; nil when absent or not a whole number
  /// (DVB's default is 1).
  public var priority: Int?
  /// `@dvb:weight`: the share of the load among alternatives of the same priority; nil when
  /// absent or not a whole number.
  public var weight: Int?

  /// Creates a `BaseURL`.
  public init(
    _ url: String, serviceLocation: String? = nil, priority: Int? = nil, weight: Int? = nil
  ) {
    self.url = url
    self.serviceLocation = serviceLocation
    self.priority = priority
    self.weight = weight
  }

  /// The priority DVB-DASH assumes when `dvb:priority` is absent.
  public static let defaultPriority = 1
}
