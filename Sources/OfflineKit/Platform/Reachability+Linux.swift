#if os(Linux)
  extension Reachability {
    /// The reachability a manager uses unless told otherwise: the kernel's routing tables.
    public static func platformDefault() -> any Reachable { Reachability() }
  }
#endif
