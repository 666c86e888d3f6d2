import Foundation
import OfflineLocks

#if canImport(Glibc)
  import Glibc
#endif

/// A real nginx serving a directory on 127.0.0.1, with a generated configuration.
///
/// Everything nginx writes (configuration, pid file, logs, temp files, TLS certificate) lives
/// in a private temporary directory that goes away with the server. The access log uses a
/// tab-separated format that `accessLog()` parses, so tests can check what a client sent.
///
/// ```swift
/// let root = try TemporaryDirectory()
/// try TestData.writeFile(at: root.file("a.bin"), count: 1 << 20)
/// let nginx = try NginxServer(root: root.url, options: .init(maxRanges: 0))
/// try nginx.start()
/// defer { nginx.stop() }
/// let url = nginx.url("/a.bin")
/// ```
public final class NginxServer: Sendable {
  /// The directory served as the document root.
  public let root: URL
  /// The options the configuration was generated from.
  public let options: Options
  /// The self-signed certificate to trust (`curl --cacert`), or `nil` without TLS.
  public let certificatePath: URL?

  private let directory: TemporaryDirectory
  let layout: Layout
  private let state: Locked<State>

  private struct State {
    var port: Int
    var process: Process?
    var exited: DispatchSemaphore?
  }

  /// Creates the private directory and, with TLS, the certificate; call `start()` next.
  ///
  /// - Parameters:
  ///   - root: The directory to serve; nginx needs read access to it.
  ///   - options: How the configuration differs from a plain static file server.
  /// - Throws: `TestSupportError` when the directory, the port or the certificate fails.
  public init(root: URL, options: Options = .init()) throws {
    self.root = root
    self.options = options
    directory = try TemporaryDirectory(prefix: "offlinekit-nginx")
    layout = Layout(prefix: directory.url)
    if options.tls {
      try Self.makeCertificate(layout: layout)
      certificatePath = layout.certificate
    } else {
      certificatePath = nil
    }
    state = Locked(State(port: try FreePort.make()))
  }

  deinit { stop() }

  /// The port nginx listens on (it may change during `start()` if the first one was taken).
  public var port: Int { state.withLock { $0.port } }

  /// `http://127.0.0.1:PORT` (or the listen address of the options), or `https://` with TLS.
  public var baseURL: URL {
    URL(string: "\(options.tls ? "https" : "http")://\(options.listenAddress):\(port)")!
  }

  /// The URL of `path` on this server; `path` should start with `/` and may have a query.
  public func url(_ path: String) -> URL {
    URL(string: baseURL.absoluteString + (path.hasPrefix("/") ? path : "/" + path))!
  }

  /// Starts nginx and returns once it accepts TCP connections (at most 10 s).
  ///
  /// If another process took the port in the meantime, retries with a new one (3 attempts).
  ///
  /// - Throws: `TestSupportError.nginxDidNotStart` with the error log when nginx exits or
  ///   does not accept connections in time.
  public func start() throws {
    for attempt in 1...3 {
      do {
        return try launch()
      } catch let error as TestSupportError
        where attempt < 3 && "\(error)".contains("Address already in use")
      {
        let port = try FreePort.make()
        state.withLock { $0.port = port }
      }
    }
  }

  /// Stops nginx: gracefully (`SIGQUIT`, requests in flight finish) or at once (`SIGTERM`,
  /// connections are closed, as when an origin goes away); after 5 s kills it and its
  /// workers (`SIGKILL`).
  ///
  /// Safe to call more than once; `deinit` calls it too.
  public func stop(graceful: Bool = true) {
    let (running, exited) = state.withLock { state in
      defer {
        state.process = nil
        state.exited = nil
      }
      return (state.process, state.exited)
    }
    guard let running, let exited else { return }
    let pid = running.processIdentifier
    kill(pid, graceful ? SIGQUIT : SIGTERM)
    if exited.wait(timeout: .now() + 5) == .timedOut {
      for child in Self.children(of: pid) { kill(child, SIGKILL) }
      kill(pid, SIGKILL)
      _ = exited.wait(timeout: .now() + 5)
    }
  }

  /// The requests nginx has logged so far, oldest first.
  ///
  /// nginx logs a request when it finishes it, which can be a moment after the client saw
  /// the last byte; use `accessLog(minimumCount:timeout:)` to wait for that many.
  ///
  /// - Throws: The file error when the log cannot be read.
  public func accessLog() throws -> [AccessLogEntry] {
    try readAccessLog()
  }

  /// The requests nginx has logged, oldest first, once there are `minimumCount` of them or
  /// `timeout` seconds have passed (polled every 10 ms with `Task.sleep`: no thread is held
  /// while it waits).
  ///
  /// - Throws: The file error when the log cannot be read.
  public func accessLog(minimumCount: Int, timeout: Double = 2) async throws
    -> [AccessLogEntry]
  {
    try await Self.poll(minimumCount: minimumCount, timeout: timeout) { try readAccessLog() }
  }

  /// Reads with `read` until it gives `minimumCount` entries or `timeout` seconds pass.
  static func poll<Entry>(
    minimumCount: Int, timeout: Double, _ read: () throws -> [Entry]
  ) async throws -> [Entry] {
    let deadline = Date().addingTimeInterval(timeout)
    while true {
      let entries = try read()
      if entries.count >= minimumCount || Date() >= deadline { return entries }
      try await Task.sleep(for: .milliseconds(10))
    }
  }

  /// nginx's error log and its stderr, for failure messages.
  public func errorLog() -> String {
    let log = (try? String(contentsOf: layout.errorLog, encoding: .utf8)) ?? ""
    let stderr = (try? String(contentsOf: layout.stderrLog, encoding: .utf8)) ?? ""
    return log + stderr
  }

  private func readAccessLog() throws -> [AccessLogEntry] {
    guard FileManager.default.fileExists(atPath: layout.accessLog.path) else { return [] }
    let text = try String(contentsOf: layout.accessLog, encoding: .utf8)
    return text.split(separator: "\n").compactMap(AccessLogEntry.init(line:))
  }

  private func launch() throws {
    stop()
    let port = self.port
    try? FileManager.default.removeItem(at: layout.pidFile)
    let text = Self.configuration(root: root, port: port, options: options, layout: layout)
    try text.write(to: layout.configuration, atomically: true, encoding: .utf8)
    let stderr = try FileHandle.creatingEmptyFile(at: layout.stderrLog)
    defer { try? stderr.close() }

    let process = Process()
    let command =
      options.launcher + [
        "/usr/sbin/nginx",
        "-p", layout.prefix.path, "-c", layout.configuration.path, "-e", layout.errorLog.path,
      ]
    process.executableURL = URL(fileURLWithPath: command[0])
    process.arguments = Array(command.dropFirst())
    process.standardInput = FileHandle.nullDevice
    process.standardOutput = FileHandle.nullDevice
    process.standardError = stderr
    let exited = DispatchSemaphore(value: 0)
    process.terminationHandler = { _ in exited.signal() }
    do {
      try process.run()
    } catch {
      throw TestSupportError.nginxDidNotStart(reason: "\(error)", log: "")
    }
    state.withLock {
      $0.process = process
      $0.exited = exited
    }

    let deadline = Date().addingTimeInterval(10)
    while Date() < deadline {
      guard process.isRunning else {
        stop()
        throw TestSupportError.nginxDidNotStart(
          reason: "it exited with status \(process.terminationStatus)", log: errorLog())
      }
      let hasPidFile = FileManager.default.fileExists(atPath: layout.pidFile.path)
      if hasPidFile && accepts(port: port) { return }
      usleep(5_000)
    }
    stop()
    throw TestSupportError.nginxDidNotStart(
      reason: "port \(port) accepted no connection within 10 s", log: errorLog())
  }

  /// Whether nginx accepts connections on its listen address and `port` now.
  private func accepts(port: Int) -> Bool {
    options.listenAddress == "127.0.0.1"
      ? Socket.accepts(port: port)
      : TCPProbe.accepts(address: options.listenAddress, port: port, timeout: 1)
  }

  /// The processes whose parent is `pid` (nginx workers), read from `/proc`.
  private static func children(of pid: pid_t) -> [pid_t] {
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
    return entries.compactMap { entry -> pid_t? in
      guard let child = pid_t(entry),
        let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
        let close = stat.lastIndex(of: ")")
      else { return nil }
      let fields = stat[stat.index(after: close)...].split(separator: " ")
      return fields.count > 1 && pid_t(fields[1]) == pid ? child : nil
    }
  }
}
