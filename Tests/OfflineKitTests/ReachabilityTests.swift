import Foundation
import OfflineLocks
import TestSupport
import TestTiming
import Testing

@testable import OfflineKit

@Suite(.timed) struct ReachabilityTests {
  /// `/proc/net/route` of a laptop on little-endian hardware: two default routes (eth0 wins
  /// by metric), 10.1.2.0/24 on veth0 inside 10.1.0.0/16 on eth1, and `ip route add
  /// unreachable 10.0.0.0/8`.
  static let ipv4Table = """
    Iface\tDestination\tGateway \tFlags\tRefCnt\tUse\tMetric\tMask\t\tMTU\tWindow\tIRTT
    wlan0\t00000000\t0101A8C0\t0003\t0\t0\t600\t00000000\t0\t0\t0
    eth0\t00000000\t0100000A\t0003\t0\t0\t100\t00000000\t0\t0\t0
    wlan0\t0001A8C0\t00000000\t0001\t0\t0\t600\t00FFFFFF\t0\t0\t0
    veth0\t0002010A\t00000000\t0001\t0\t0\t0\t00FFFFFF\t0\t0\t0
    eth1\t0000010A\t00000000\t0001\t0\t0\t100\t0000FFFF\t0\t0\t0
    *\t0000000A\t00000000\t0201\t0\t0\t0\t000000FF\t0\t0\t0
    this line is not a route

    """

  /// `/proc/net/ipv6_route`: 2001:db8:1::/48 on veth0 inside 2001:db8::/32 on wg0, a default
  /// through eth0, the local `::1` and the kernel's "unreachable" default on lo (not up).
  static let ipv6Table = """
    fd000000000000000000000000000000 40 00000000000000000000000000000000 00 \
    00000000000000000000000000000000 00000100 00000001 00000000 00000001     eth0
    20010db8000000000000000000000000 20 00000000000000000000000000000000 00 \
    00000000000000000000000000000000 00000400 00000001 00000000 00000001      wg0
    20010db8000100000000000000000000 30 00000000000000000000000000000000 00 \
    00000000000000000000000000000000 00000100 00000001 00000000 00000001    veth0
    fe800000000000000000000000000000 40 00000000000000000000000000000000 00 \
    00000000000000000000000000000000 00000100 00000002 00000000 00000001     eth0
    00000000000000000000000000000000 00 00000000000000000000000000000000 00 \
    fd000000000000000000000000000001 00000400 00000002 00000000 00000003     eth0
    00000000000000000000000000000001 80 00000000000000000000000000000000 00 \
    00000000000000000000000000000000 00000000 00000002 00000000 80200001       lo
    00000000000000000000000000000000 00 00000000000000000000000000000000 00 \
    00000000000000000000000000000000 ffffffff 00000001 00000000 00200200       lo

    """

  /// Fake `/proc` and `/sys` roots, which exist as long as this value does: the tables above; eth0, wlan0, wg0 up; eth1 without
  /// carrier; veth0 administratively down, so it has no readable `carrier`.
  struct FakeSystem {
    let directory: TemporaryDirectory
    var reachability: Reachability {
      Reachability(procRoot: directory.path + "/proc", sysRoot: directory.path + "/sys")
    }

    init(ipv4: String = ipv4Table, ipv6: String = ipv6Table) throws {
      directory = try TemporaryDirectory(prefix: "offlinekit-reachability")
      try write(ipv4, to: "proc/net/route")
      try write(ipv6, to: "proc/net/ipv6_route")
      let interfaces = [
        ("eth0", "up", "1"), ("wlan0", "up", "1"), ("wg0", "unknown", "1"), ("lo", "unknown", "1"),
        ("eth1", "lowerlayerdown", "0"), ("veth0", "down", nil),
      ]
      for (name, operstate, carrier) in interfaces {
        try write(operstate + "\n", to: "sys/class/net/\(name)/operstate")
        if let carrier { try write(carrier + "\n", to: "sys/class/net/\(name)/carrier") }
      }
    }

    func write(_ text: String, to path: String) throws {
      let url = directory.file(path)
      try FileManager.default.createDirectory(
        at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
      try text.write(to: url, atomically: true, encoding: .utf8)
    }
  }

  /// Answers unreachable for the first `failures` questions, then reachable.
  final class Flaky: Reachable {
    let asked = Locked(0)
    let failures: Int
    init(failures: Int) { self.failures = failures }
    func isReachable(host: String) -> Reachability.Status {
      asked.withLock { count in
        count += 1
        return count > failures ? .reachable : .unreachable("not yet")
      }
    }
  }

  func address(_ text: String) -> [UInt8] { NumericAddress(numeric: text)!.bytes }

  @Test func parsesTheIPv4TableSkippingTheHeaderAndJunk() {
    let routes = Route.parseIPv4(Self.ipv4Table)
    #expect(routes.count == 6)
    #expect(
      routes[0]
        == Route(
          interface: "wlan0", destination: [0, 0, 0, 0], prefixLength: 0, metric: 600,
          flags: 3))
    #expect(routes[3].destination == [10, 1, 2, 0] && routes[3].prefixLength == 24)
    #expect(routes[4].destination == [10, 1, 0, 0] && routes[4].prefixLength == 16)
    #expect(routes[5].isReject && routes[5].interface == "*" && routes[5].prefixLength == 8)
  }

  @Test func parsesTheIPv6TableWithHexadecimalNumbers() {
    let routes = Route.parseIPv6(Self.ipv6Table)
    #expect(routes.count == 7)
    #expect(routes[2].interface == "veth0" && routes[2].prefixLength == 48)
    #expect(routes[2].destination == address("2001:db8:1::"))
    #expect(routes[1].metric == 0x400)
    #expect(routes[4].isDefault && routes[4].isUp && routes[4].interface == "eth0")
    #expect(!routes[6].isUp && routes[6].isReject)
  }

  @Test func theLongestPrefixWinsThenTheLowestMetric() {
    let routes = Route.parseIPv4(Self.ipv4Table)
    #expect(Route.bestMatch(for: address("10.1.2.3"), in: routes)?.interface == "veth0")
    #expect(Route.bestMatch(for: address("10.1.9.9"), in: routes)?.interface == "eth1")
    #expect(Route.bestMatch(for: address("10.9.9.9"), in: routes)?.isReject == true)
    #expect(Route.bestMatch(for: address("192.168.1.7"), in: routes)?.interface == "wlan0")
    #expect(Route.bestMatch(for: address("203.0.113.5"), in: routes)?.interface == "eth0")
    #expect(Route.bestMatch(for: address("10.1.2.3"), in: []) == nil)
  }

  @Test func theLongestIPv6PrefixWinsAndRoutesThatAreNotUpDoNotCount() {
    let routes = Route.parseIPv6(Self.ipv6Table)
    #expect(Route.bestMatch(for: address("2001:db8:1::5"), in: routes)?.interface == "veth0")
    #expect(Route.bestMatch(for: address("2001:db8:2::5"), in: routes)?.interface == "wg0")
    #expect(Route.bestMatch(for: address("2001:db9::1"), in: routes)?.interface == "eth0")
    let onlyTheRejectDefault = routes.filter { $0.interface == "lo" }
    #expect(Route.bestMatch(for: address("2001:db9::1"), in: onlyTheRejectDefault) == nil)
  }

  @Test func loopbackIsReachableWithoutAnyRouteOrInterface() throws {
    let empty = try FakeSystem(ipv4: "", ipv6: "")
    try FileManager.default.removeItem(at: empty.directory.file("sys"))
    for host in ["127.0.0.1", "127.8.9.10", "::1", "[::1]", "localhost", "LOCALHOST"] {
      #expect(empty.reachability.isReachable(host: host) == .reachable, "\(host)")
    }
    #expect(
      empty.reachability.isReachable(host: "10.1.2.3") == .unreachable("no route to 10.1.2.3"))
  }

  @Test func anInterfaceThatIsDownMakesItsRoutesUnreachable() throws {
    let fake = try FakeSystem()
    let system = fake.reachability
    let veth0 = Reachability.Status.unreachable("interface veth0 is down")
    #expect(system.isReachable(host: "10.1.2.3") == veth0)
    #expect(system.isReachable(host: "::ffff:10.1.2.3") == veth0)
    #expect(system.isReachable(host: "[2001:db8:1::5]") == veth0)
    #expect(system.isReachable(host: "10.1.9.9") == .unreachable("interface eth1 is down"))
    #expect(system.isReachable(host: "203.0.113.5") == .reachable)
    #expect(system.isReachable(host: "2001:db8:2::5") == .reachable)
  }

  @Test func anUnreachableRouteSaysThereIsNoRoute() throws {
    let fake = try FakeSystem()
    let system = fake.reachability
    #expect(system.isReachable(host: "10.1.2.3") != .unreachable("no route to 10.1.2.3"))
    #expect(system.isReachable(host: "10.9.9.9") == .unreachable("no route to 10.9.9.9"))
  }

  @Test func namesAreNeverResolvedButNeedAWorkingDefaultRoute() throws {
    let fake = try FakeSystem()
    #expect(fake.reachability.isReachable(host: "media.example") == .reachable)
    let noDefault = try FakeSystem(
      ipv4: Self.ipv4Table.split(separator: "\n")
        .filter { $0.split(separator: "\t").dropFirst().first != "00000000" }
        .joined(separator: "\n"),
      ipv6: "")
    #expect(
      noDefault.reachability.isReachable(host: "media.example") == .unreachable("no default route"))
    let wlanDown = try FakeSystem(
      ipv4: Self.ipv4Table.replacingOccurrences(of: "eth0", with: "veth0"), ipv6: "")
    try FileManager.default.removeItem(at: wlanDown.directory.file("sys/class/net/wlan0/carrier"))
    #expect(
      wlanDown.reachability.isReachable(host: "media.example")
        == .unreachable("interface wlan0 is down"))
  }

  @Test(.timeLimit(.minutes(1))) func waitingReturnsOnceTheHostIsReachable() async throws {
    let flaky = Flaky(failures: 3)
    try await flaky.waitUntilReachable(host: "10.1.2.3", pollInterval: .milliseconds(5))
    #expect(flaky.asked.withLock { $0 } == 4)
  }

  @Test(.timeLimit(.minutes(1))) func waitingThrowsCancellationErrorWhenCancelled() async {
    let never = Flaky(failures: .max)
    let task = Task {
      try await never.waitUntilReachable(host: "10.1.2.3", pollInterval: .seconds(60))
    }
    try? await Task.sleep(for: .milliseconds(50))
    task.cancel()
    await #expect(throws: CancellationError.self) { try await task.value }
  }

  @Test(.enabled(if: NetworkNamespace.isSupported), .timeLimit(.minutes(1)))
  func followsTheLinkOfARealNamespace() async throws {
    let namespace = try await NetworkNamespace()
    defer { namespace.remove() }
    let reachability = Reachability()
    let host = namespace.namespaceAddress
    #expect(reachability.isReachable(host: host) == .reachable)
    try await namespace.setLink(up: false)
    #expect(
      reachability.isReachable(host: host)
        == .unreachable("interface \(namespace.hostInterface) is down"))
    try await namespace.setLink(up: true)
    #expect(reachability.isReachable(host: host) == .reachable)
    try await reachability.waitUntilReachable(host: host, pollInterval: .milliseconds(10))
  }
}
