/// `MPD@type` (ISO/IEC 23009-1 §5.3.1.2): whether the presentation is on demand or live.
public enum PresentationType: String, Sendable, Equatable {
  /// On demand: every segment is available; the default.
  case `static`
  /// Live: segments appear over time and the MPD may be updated.
  case dynamic
}
