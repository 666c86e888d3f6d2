import Foundation
import OfflineLocks

#if canImport(Glibc)
  import Glibc
#endif

/// A real tinyproxy (Debian's `tinyproxy-bin`) on 127.0.0.1, with a generated configuration.
///
/// Its configuration, pid file and log live in a private temporary directory that goes away
/// with the proxy. It forwards plain http requests adding `Via: 1.1 offlinekit-proxy
/// (tinyproxy/…)` (see ``viaName``), so an origin can tell a proxied request from a direct
/// one, and tunnels https with `CONNECT` to any port.
///
/// ```swift
/// let proxy = try TinyProxy()
/// try proxy.start()
/// defer { proxy.stop() }
/// // ... http_proxy=proxy.url.absoluteString ...
/// #expect(try proxy.requests().contains("GET \(origin)/a.bin"))
/// ```
public final class TinyProxy: Sendable {
  /// The name tinyproxy puts in the `Via` header it adds.
  public static let viaName = "offlinekit-proxy"
  /// The executable.
  public static let executable = "/usr/bin/tinyproxy"

  /// `user` and `password` the proxy asks for (`407` without them), or nil for none.
  public let basicAuth: (user: String, password: String)?
  private let directory: TemporaryDirectory
  private let state: Locked<State>

  private struct State {
    var port: Int
    var process: Process?
  }

  /// Whether tinyproxy is installed (`apt-get install tinyproxy-bin`, or `scripts/install-deps`).
  public static var isInstalled: Bool { FileManager.default.isExecutableFile(atPath: executable) }

  /// Creates the private directory and picks a free port; call `start()` next.
  public init(basicAuth: (user: String, password: String)? = nil) throws {
    self.basicAuth = basicAuth
    directory = try TemporaryDirectory(prefix: "offlinekit-tinyproxy")
    state = Locked(State(port: try FreePort.make()))
  }

  deinit { stop() }

  /// The port the proxy listens on.
  public var port: Int { state.withLock { $0.port } }

  /// `http://127.0.0.1:PORT`, the value for `--proxy` or `http_proxy`.
  public var url: URL { URL(string: "http://127.0.0.1:\(port)")! }

  private var logFile: URL { directory.file("tinyproxy.log") }

  /// Starts tinyproxy in the foreground and returns once it accepts connections (at most
  /// 10 s); tries another port when the first one was taken meanwhile (3 attempts).
  ///
  /// - Throws: `TestSupportError.processFailed` with the proxy's log when it does not start.
  public func start() throws {
    for attempt in 1...3 {
      do {
        return try launch()
      } catch  where attempt < 3 {
        let port = try FreePort.make()
        state.withLock { $0.port = port }
      }
    }
  }

  /// Stops the proxy (`SIGTERM`, then `SIGKILL` after half a second: tinyproxy otherwise
  /// waits for its idle connections). Safe to call more than once.
  public func stop() {
    guard
      let process = state.withLock({ state in
        defer { state.process = nil }; return state.process
      })
    else { return }
    kill(process.processIdentifier, SIGTERM)
    let deadline = Date().addingTimeInterval(0.5)
    while process.isRunning && Date() < deadline { usleep(10_000) }
    if process.isRunning {
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
    }
  }

  /// Everything the proxy logged so far.
  public func log() -> String {
    (try? String(contentsOf: logFile, encoding: .utf8)) ?? ""
  }

  /// The requests the proxy received, oldest first, as `METHOD TARGET`: `GET
  /// http://127.0.0.1:8080/a.bin` for a forwarded request, `CONNECT 127.0.0.1:8443` for a
  /// tunnel.
  public func requests() -> [String] {
    log().split(separator: "\n").compactMap { line in
      guard let marker = line.range(of: "): ", options: .backwards),
        line.contains("Request (file descriptor")
      else { return nil }
      let request = line[marker.upperBound...]
      guard let version = request.range(of: " HTTP/", options: .backwards) else { return nil }
      return String(request[..<version.lowerBound])
    }
  }

  private func launch() throws {
    stop()
    let port = self.port
    var lines = [
      "Port \(port)",
      "Listen 127.0.0.1",
      "Timeout 60",
      "LogFile \"\(logFile.path)\"",
      "LogLevel Connect",
      "PidFile \"\(directory.file("tinyproxy.pid").path)\"",
      "MaxClients 50",
      "ViaProxyName \"\(Self.viaName)\"",
    ]
    if let basicAuth { lines.append("BasicAuth \(basicAuth.user) \(basicAuth.password)") }
    let configuration = directory.file("tinyproxy.conf")
    try (lines.joined(separator: "\n") + "\n").write(
      to: configuration, atomically: true, encoding: .utf8)
    let output = try FileHandle.creatingEmptyFile(at: directory.file("stderr.log"))
    defer { try? output.close() }

    let process = Process()
    process.executableURL = URL(fileURLWithPath: Self.executable)
    process.arguments = ["-d", "-c", configuration.path]
    process.standardInput = FileHandle.nullDevice
    process.standardOutput = output
    process.standardError = output
    try process.run()
    state.withLock { $0.process = process }

    let deadline = Date().addingTimeInterval(10)
    while Date() < deadline {
      guard process.isRunning else { break }
      if Socket.accepts(port: port) { return }
      usleep(5_000)
    }
    stop()
    let stderr = (try? String(contentsOf: directory.file("stderr.log"), encoding: .utf8)) ?? ""
    throw TestSupportError.processFailed(
      command: "\(Self.executable) -d -c \(configuration.path)", status: -1,
      stderr: "tinyproxy did not accept connections on port \(port): \(stderr)\(log())")
  }
}
