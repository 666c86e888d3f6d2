/// The segment information elements one level (Period, AdaptationSet or Representation)
/// carries: at most one of each is allowed, and a lower level inherits from the levels above
/// it (ISO/IEC 23009-1 §5.3.9.1).
public struct SegmentInformation: Sendable, Equatable {
  /// `SegmentBase`: one file, optionally with an index (`sidx`) range.
  public var base: SegmentBase?
  /// `SegmentList`: explicit segment URLs.
  public var list: SegmentList?
  /// `SegmentTemplate`: segment URLs made from a template.
  public var template: SegmentTemplate?

  /// Creates segment information.
  public init(base: SegmentBase? = nil, list: SegmentList? = nil, template: SegmentTemplate? = nil)
  {
    self.base = base
    self.list = list
    self.template = template
  }

  /// Whether none of the three elements is present.
  public var isEmpty: Bool { base == nil && list == nil && template == nil }
}
