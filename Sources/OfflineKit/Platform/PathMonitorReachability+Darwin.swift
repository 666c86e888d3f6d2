// Written for Apple platforms, not compiled in our CI.
#if canImport(Network)
  import Network
  import OfflineLocks

  /// Reachability from `NWPathMonitor`: the system's own view of the current path, the
  /// counterpart of the routing tables ``Reachability`` reads on Linux.
  ///
  /// Before the monitor's first update the status is unknown (which counts as reachable).
  public final class PathMonitorReachability: Reachable {
    private let monitor = NWPathMonitor()
    private let status = Locked<Reachability.Status>(.unknown("no path reported yet"))

    /// Starts monitoring on a queue of its own.
    public init() {
      monitor.pathUpdateHandler = { [status] path in
        let next: Reachability.Status =
          path.status == .satisfied ? .reachable : .unreachable("no usable network path")
        status.withLock { $0 = next }
      }
      monitor.start(queue: DispatchQueue(label: "OfflineKit.PathMonitorReachability"))
    }

    deinit { monitor.cancel() }

    /// The current path's status; loopback hosts are always reachable.
    public func isReachable(host: String) -> Reachability.Status {
      if host == "localhost" || host == "127.0.0.1" || host == "::1" { return .reachable }
      return status.withLock { $0 }
    }
  }

  extension Reachability {
    /// The reachability a manager uses unless told otherwise: the path monitor.
    public static func platformDefault() -> any Reachable { PathMonitorReachability() }
  }
#endif
