// Written for Apple platforms, not compiled in our CI.
#if canImport(Darwin)
  extension LockHolder {
    /// Darwin does not say which process holds a `flock`: always nil.
    static func find(lockedFile descriptor: Int32) -> LockHolder? { nil }
  }
#endif
