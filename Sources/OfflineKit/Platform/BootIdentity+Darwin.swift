// Written for Apple platforms, not compiled in our CI.
#if canImport(Darwin)
  import Darwin

  extension BootIdentity {
    /// `kern.bootsessionuuid`, new at every boot.
    static func readCurrent() -> String? {
      var size = 0
      guard sysctlbyname("kern.bootsessionuuid", nil, &size, nil, 0) == 0, size > 0 else {
        return nil
      }
      var bytes = [CChar](repeating: 0, count: size)
      guard sysctlbyname("kern.bootsessionuuid", &bytes, &size, nil, 0) == 0 else { return nil }
      return String(cString: bytes)
    }
  }
#endif
