import Foundation

#if canImport(Glibc)
  import Glibc
#endif

extension NetworkNamespace {
  /// The path of `ip`, or an error that says how to install it.
  static func ip() throws -> String {
    guard let ipPath else {
      throw TestSupportError.processFailed(
        command: "ip", status: 127, stderr: "iproute2 is missing: apt-get install -y iproute2")
    }
    return ipPath
  }

  /// Runs `body` while holding an exclusive lock shared by every test process on this
  /// machine, so two of them never pick the same subnet. Waits at most 30 s for the lock,
  /// polling with `Task.sleep`.
  static func withSetupLock<T: Sendable>(_ body: () async throws -> T) async throws -> T {
    let path = "/tmp/offlinekit-netns.lock"
    let fd = open(path, O_CREAT | O_RDWR | O_CLOEXEC, 0o600)
    guard fd >= 0 else { throw TestSupportError.systemCall("open(\(path))", errno: errno) }
    defer { close(fd) }
    let deadline = Date().addingTimeInterval(30)
    while flock(fd, LOCK_EX | LOCK_NB) != 0 {
      guard errno == EWOULDBLOCK || errno == EINTR, Date() < deadline else {
        throw TestSupportError.systemCall("flock(\(path))", errno: errno)
      }
      try await Task.sleep(for: .milliseconds(20))
    }
    defer { flock(fd, LOCK_UN) }
    return try await body()
  }

  /// A third octet `X` such that `10.213.X.0/30` overlaps no route in `/proc/net/route`
  /// other than a default route, trying `start % 256` first.
  static func freeSubnet(start: Int) throws -> Int {
    let text = (try? String(contentsOfFile: "/proc/net/route", encoding: .utf8)) ?? ""
    let routes: [(network: UInt32, mask: UInt32)] = text.split(separator: "\n").compactMap {
      let fields = $0.split(whereSeparator: \.isWhitespace)
      guard fields.count >= 8, let destination = UInt32(fields[1], radix: 16),
        let mask = UInt32(fields[7], radix: 16), mask != 0
      else { return nil }
      // The kernel prints the raw `in_addr` as a host-order number.
      return (UInt32(bigEndian: destination), UInt32(bigEndian: mask))
    }
    for offset in 0..<256 {
      let octet = (start &+ offset) & 0xFF
      let network = UInt32(0x0AD5_0000) | UInt32(octet) << 8
      let overlaps = routes.contains { route in
        let common = route.mask & 0xFFFF_FFFC
        return route.network & common == network & common
      }
      if !overlaps { return octet }
    }
    throw TestSupportError.unexpectedOutput(
      command: "cat /proc/net/route", output: "every /30 of 10.213.0.0/16 we use is taken")
  }

  /// Creates the namespace and the pair, assigns addresses and brings the links up; on
  /// failure removes what it made.
  static func create(
    name: String, hostInterface: String, namespaceInterface: String,
    hostAddress: String, namespaceAddress: String, ip: String
  ) async throws {
    let steps: [[String]] = [
      ["netns", "add", name],
      [
        "link", "add", hostInterface, "type", "veth", "peer", "name", namespaceInterface,
        "netns", name,
      ],
      ["addr", "add", "\(hostAddress)/30", "dev", hostInterface],
      ["-n", name, "addr", "add", "\(namespaceAddress)/30", "dev", namespaceInterface],
      ["-n", name, "link", "set", "lo", "up"],
      ["-n", name, "link", "set", namespaceInterface, "up"],
      ["link", "set", hostInterface, "up"],
    ]
    do {
      for step in steps { try await ProcessRunner.checked(ip, step, timeout: 10) }
    } catch {
      _ = try? await ProcessRunner.run(ip, ["link", "del", hostInterface], timeout: 10)
      _ = try? await ProcessRunner.run(ip, ["netns", "del", name], timeout: 10)
      throw error
    }
  }

  /// Sends `SIGKILL` to every process inside namespace `name` and waits (at most 5 s) until
  /// they are gone. Synchronous (its `ip` runs block briefly) for `remove()` and `deinit`.
  static func killAll(inside name: String, ip: String) {
    let deadline = Date().addingTimeInterval(5)
    while Date() < deadline {
      guard
        let output = try? ProcessRunner.blocking(
          ip, ["netns", "pids", name], timeout: 10, checking: false),
        output.status == 0
      else { return }
      let pids = output.stdoutText.split(whereSeparator: \.isWhitespace).compactMap {
        pid_t($0)
      }
      if pids.isEmpty { return }
      for pid in pids { kill(pid, SIGKILL) }
      usleep(20_000)
    }
  }

  /// Removes namespaces named `okt-<pid>-<n>` whose process no longer runs, with their
  /// processes and veth pairs (a pair goes when its namespace end goes).
  static func removeLeftovers() {
    guard let ip = ipPath,
      let output = try? ProcessRunner.blocking(ip, ["netns", "list"], timeout: 10)
    else { return }
    for line in output.stdoutText.split(separator: "\n") {
      guard let name = line.split(separator: " ").first else { continue }
      let parts = name.split(separator: "-")
      guard parts.count == 3, parts[0] == "okt", let pid = pid_t(parts[1]),
        kill(pid, 0) != 0, errno == ESRCH
      else { continue }
      killAll(inside: String(name), ip: ip)
      _ = try? ProcessRunner.blocking(ip, ["netns", "del", String(name)], checking: false)
    }
  }
}
