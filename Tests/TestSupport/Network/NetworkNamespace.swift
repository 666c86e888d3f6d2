import Foundation
import OfflineLocks
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// A Linux network namespace joined to this host by a veth pair: a second host to test against
/// whose link can be pulled.
///
/// Needs root and iproute2. The namespace gets a unique name (`okt-<pid>-<n>`), the pair a
/// /30 from `10.213.X.0/24`, with `X` chosen so that no route of this host overlaps it: the
/// host end is `.1`, the namespace end `.2`. Both ends and the namespace's `lo` are up.
/// `remove()`, also called from `deinit`, kills every process inside, deletes the pair and
/// the namespace. Namespaces left behind by test processes that died are removed by the
/// next `init()`.
///
/// ```swift
/// let namespace = try await NetworkNamespace()
/// defer { namespace.remove() }
/// let nginx = try NginxServer(root: root.url, options: .init().inside(namespace))
/// try nginx.start()
/// try await namespace.setLink(up: false)  // now nginx.baseURL cannot be reached
/// ```
public final class NetworkNamespace: Sendable {
  /// The namespace's name, as `ip netns list` shows it.
  public let name: String
  /// The host end of the veth pair, such as `okh2n9c-1`.
  public let hostInterface: String
  /// The namespace end of the veth pair, such as `okn2n9c-1`.
  public let namespaceInterface: String
  /// The host end's address, `10.213.X.1`.
  public let hostAddress: String
  /// The namespace end's address, `10.213.X.2`; servers inside listen here.
  public let namespaceAddress: String

  private let processes = Locked<[Process]?>([])

  /// Whether this process can create namespaces: it runs as root and `ip netns add` works.
  ///
  /// Tests that need a namespace use `.enabled(if: NetworkNamespace.isSupported)`.
  public static let isSupported: Bool = {
    guard geteuid() == 0, let ip = ipPath else { return false }
    let probe = "okt-\(getpid())-probe"
    let added = try? ProcessRunner.blocking(ip, ["netns", "add", probe], timeout: 10)
    guard added != nil else {
      return false
    }
    _ = try? ProcessRunner.blocking(ip, ["netns", "del", probe], timeout: 10)
    return true
  }()

  /// The `ip` program of iproute2, or `nil` when it is not installed.
  static let ipPath: String? = ["/usr/sbin/ip", "/sbin/ip", "/usr/bin/ip", "/bin/ip"].first {
    FileManager.default.isExecutableFile(atPath: $0)
  }

  /// Creates the namespace and the veth pair, assigns the addresses and brings the links up.
  ///
  /// - Throws: `TestSupportError` when `ip` is missing or one of its commands fails; what was
  ///   created by then is removed again.
  public init() async throws {
    let number = Self.counter.add(1, ordering: .relaxed).newValue
    let pid = Int(getpid())
    let name = "okt-\(pid)-\(number)"
    let suffix = "\(String(pid, radix: 36))-\(String(number, radix: 36))"
    let hostInterface = "okh\(suffix)"
    let namespaceInterface = "okn\(suffix)"
    let ip = try Self.ip()
    let (host, inside) = try await Self.withSetupLock {
      Self.removeLeftovers()
      let subnet = try Self.freeSubnet(start: pid &+ number)
      let host = "10.213.\(subnet).1"
      let inside = "10.213.\(subnet).2"
      try await Self.create(
        name: name, hostInterface: hostInterface, namespaceInterface: namespaceInterface,
        hostAddress: host, namespaceAddress: inside, ip: ip)
      return (host, inside)
    }
    self.name = name
    self.hostInterface = hostInterface
    self.namespaceInterface = namespaceInterface
    hostAddress = host
    namespaceAddress = inside
    try await waitForCarrier(true)
  }

  deinit { remove() }

  /// The command prefix that runs a program inside the namespace: `ip netns exec NAME`.
  public var launcher: [String] { [Self.ipPath ?? "/usr/sbin/ip", "netns", "exec", name] }

  /// Plugs or pulls the virtual cable, and returns once the host end sees the change (5 s).
  ///
  /// Sets the namespace end up or down, so the host end keeps its address and route and only
  /// loses its carrier (`operstate` becomes `lowerlayerdown`, `carrier` 0), as when Wi-Fi
  /// drops or a cable is unplugged. Setting the host end itself down would make the kernel
  /// delete its route, and traffic to `namespaceAddress` would follow the default route.
  ///
  /// - Throws: `TestSupportError` when `ip` fails or the carrier does not change in time.
  public func setLink(up: Bool) async throws {
    try await ProcessRunner.checked(
      try Self.ip(), ["-n", name, "link", "set", namespaceInterface, up ? "up" : "down"],
      timeout: 10)
    try await waitForCarrier(up)
  }

  /// Starts `command` inside the namespace and returns the running process.
  ///
  /// Its standard input, output and error are `/dev/null`; `remove()` kills it.
  ///
  /// - Parameter command: The program's absolute path and its arguments.
  /// - Throws: `Process.run()`'s error, or `TestSupportError` after `remove()`.
  public func run(_ command: [String]) throws -> Process {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: try Self.ip())
    process.arguments = ["netns", "exec", name] + command
    process.standardInput = FileHandle.nullDevice
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try processes.withLock { list in
      guard list != nil else {
        throw TestSupportError.unexpectedOutput(
          command: command.joined(separator: " "), output: "namespace \(name) was removed")
      }
      try process.run()
      list?.append(process)
    }
    return process
  }

  /// Kills every process inside the namespace, deletes the veth pair and the namespace.
  ///
  /// Synchronous, so `deinit` can call it: its `ip` runs block this thread briefly (they
  /// depend on nothing in this process).
  ///
  /// Safe to call more than once; `deinit` calls it too. Errors are ignored: what can be
  /// removed is removed.
  public func remove() {
    let started = processes.withLock { list in
      defer { list = nil }
      return list
    }
    guard let started, let ip = Self.ipPath else { return }
    for process in started where process.isRunning { kill(process.processIdentifier, SIGKILL) }
    Self.killAll(inside: name, ip: ip)
    _ = try? ProcessRunner.blocking(ip, ["link", "del", hostInterface], checking: false)
    _ = try? ProcessRunner.blocking(ip, ["netns", "del", name], checking: false)
  }

  /// Waits (at most 5 s, polling with `Task.sleep`) until the host end's carrier is `up`.
  private func waitForCarrier(_ up: Bool) async throws {
    let path = "/sys/class/net/\(hostInterface)/carrier"
    let deadline = Date().addingTimeInterval(5)
    while true {
      let carrier = (try? String(contentsOfFile: path, encoding: .utf8))?
        .trimmingCharacters(in: .whitespacesAndNewlines)
      if (carrier == "1") == up { return }
      guard Date() < deadline else {
        throw TestSupportError.unexpectedOutput(
          command: "cat \(path)", output: "carrier is \(carrier ?? "unreadable") after 5 s")
      }
      try await Task.sleep(for: .milliseconds(10))
    }
  }

  private static let counter = Atomic<Int>(0)
}
