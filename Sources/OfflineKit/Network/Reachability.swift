import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Tells from the kernel's routing table and interface states whether a host can be reached.
///
/// No process is spawned, no packet is sent and no name is resolved: a numeric address is
/// matched against `/proc/net/route` (IPv4) or `/proc/net/ipv6_route` (IPv6) by longest
/// prefix, and the chosen route's interface must be up, which means
/// `/sys/class/net/IFACE/operstate` says `up` or `unknown` and `carrier` says `1`. Loopback
/// addresses and `localhost` are always reachable. A host name counts as reachable when a
/// default route goes through a non-loopback interface that is up.
///
/// "Reachable" means the kernel has a working first hop; the host itself may still be down.
/// When the routing tables cannot be read (no `/proc`, as on Apple platforms or in a sandbox)
/// the answer is ``Status/unknown(_:)``, which counts as reachable: the transfer's own errors
/// decide, and nothing waits for a network it cannot see.
///
/// ```swift
/// let reachability = Reachability()
/// if case .unreachable(let reason) = reachability.isReachable(host: "10.1.2.3") {
///   logger.info("waiting for network: \(reason)")
/// }
/// try await reachability.waitUntilReachable(host: "10.1.2.3")
/// ```
public struct Reachability: Reachable {
  /// Whether a host can be reached.
  public enum Status: Sendable, Equatable {
    /// A usable route goes through an interface that is up.
    case reachable
    /// The host cannot be reached; the reason is short and names the address or interface,
    /// such as `no route to 10.1.2.3` or `interface wlan0 is down`.
    case unreachable(String)
    /// The system could not tell (its routing tables cannot be read); the reason says why.
    /// Counts as reachable: a download goes ahead and its own errors decide.
    case unknown(String)

    /// Whether a download should wait for the network: only when it is known unreachable.
    public var isUnreachable: Bool {
      if case .unreachable = self { return true }
      return false
    }
  }

  /// The directory read in place of `/proc` (route tables under `net/`).
  let procRoot: String
  /// The directory read in place of `/sys` (interfaces under `class/net/`).
  let sysRoot: String

  /// Creates a reachability that reads the system's route tables and interfaces.
  public init() {
    self.init(procRoot: "/proc", sysRoot: "/sys")
  }

  /// Creates a reachability that reads the given roots: the seam tests point at fixtures.
  ///
  /// - Parameters:
  ///   - procRoot: Where `net/route` and `net/ipv6_route` live.
  ///   - sysRoot: Where `class/net/IFACE/operstate` and `carrier` live.
  init(procRoot: String, sysRoot: String) {
    self.procRoot = procRoot
    self.sysRoot = sysRoot
  }

  /// Whether `host` can be reached now, decided from local kernel state only.
  ///
  /// - Parameter host: A numeric IPv4 or IPv6 address (IPv6 may be in brackets or carry a
  ///   `%scope`), `localhost`, or a host name, which is never looked up.
  public func isReachable(host: String) -> Status {
    let lowered = host.lowercased()
    if lowered == "localhost" || lowered == "localhost." { return .reachable }
    guard let address = NumericAddress(numeric: host) else { return nameStatus() }
    if address.isLoopback { return .reachable }
    guard let routes = address.isIPv4 ? ipv4Routes() : ipv6Routes() else {
      return unknown
    }
    var scope: String?
    if address.scopeID != 0 {
      var name = [CChar](repeating: 0, count: Int(IF_NAMESIZE) + 1)
      guard if_indextoname(address.scopeID, &name) != nil else {
        return .unreachable("no interface with index \(address.scopeID)")
      }
      scope = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
    guard let route = Route.bestMatch(for: address.bytes, in: routes, interface: scope),
      !route.isReject
    else { return .unreachable("no route to \(address.text)") }
    return interfaceStatus(route.interface)
  }

  /// A name needs DNS, which this type never asks: reachable when some default route goes
  /// through an interface, other than loopback, that is up.
  private func nameStatus() -> Status {
    let ipv4 = ipv4Routes()
    let ipv6 = ipv6Routes()
    guard ipv4 != nil || ipv6 != nil else { return unknown }
    let defaults = ((ipv4 ?? []) + (ipv6 ?? [])).filter {
      $0.isUp && !$0.isReject && $0.isDefault && $0.interface != "lo"
    }
    guard !defaults.isEmpty else { return .unreachable("no default route") }
    var firstDown: Status?
    for route in defaults {
      let status = interfaceStatus(route.interface)
      if status == .reachable { return .reachable }
      if firstDown == nil { firstDown = status }
    }
    return firstDown ?? .unreachable("no default route")
  }

  /// `.reachable` when the interface is up and has a carrier, else why not.
  func interfaceStatus(_ interface: String) -> Status {
    guard !interface.isEmpty, !interface.contains("/"), interface != "*" else {
      return .unreachable("no interface for the route")
    }
    let directory = "\(sysRoot)/class/net/\(interface)"
    let operstate = Self.firstLine(of: "\(directory)/operstate")
    // Reading `carrier` of an interface that is administratively down fails with EINVAL.
    let carrier = Self.firstLine(of: "\(directory)/carrier")
    guard operstate == "up" || operstate == "unknown", carrier == "1" else {
      return .unreachable("interface \(interface) is down")
    }
    return .reachable
  }

  /// The answer when no routing table can be read.
  private var unknown: Status {
    .unknown("no routing table at \(procRoot)/net")
  }

  /// The IPv4 routes, nil when the table cannot be read.
  private func ipv4Routes() -> [Route]? {
    Self.contents(of: "\(procRoot)/net/route").map(Route.parseIPv4)
  }

  /// The IPv6 routes, nil when the table cannot be read.
  private func ipv6Routes() -> [Route]? {
    Self.contents(of: "\(procRoot)/net/ipv6_route").map(Route.parseIPv6)
  }

  /// The whole file, or `nil` when it cannot be read (a missing file or an `EINVAL`).
  private static func contents(of path: String) -> String? {
    guard let data = FileManager.default.contents(atPath: path) else { return nil }
    return String(decoding: data, as: UTF8.self)
  }

  private static func firstLine(of path: String) -> String? {
    contents(of: path)?.split(whereSeparator: \.isNewline).first.map {
      $0.trimmingCharacters(in: .whitespaces)
    }
  }
}
