import OfflineHTTP

/// A clock held by an `Equatable` configuration: equal when it is the same instance.
struct ClockIdentity: Sendable, Equatable {
  let clock: any Timekeeping

  init(_ clock: any Timekeeping) {
    self.clock = clock
  }

  static func == (lhs: ClockIdentity, rhs: ClockIdentity) -> Bool {
    lhs.clock === rhs.clock
  }
}
