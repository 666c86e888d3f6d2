import Foundation
import TestSupport
import TestTiming
import Testing

/// What other users see of a running `offline` process: no secret given on the command line
/// shows in `ps` (issue 36, item 11). Every local user reads `/proc/<pid>/cmdline`, which
/// held `-u user:password`, a proxy's password, an `Authorization` header and `serve --token`
/// for the whole run. The process blanks its own arguments, so this needs a real one.
@Suite(.ownThreads, .timed) struct ProcessArgumentTests {
  /// `offline ARGUMENTS` started in the background, its output in a file of `folder`.
  static func start(
    _ arguments: [String], in folder: TemporaryDirectory, environment: [String: String] = [:]
  ) throws -> (Process, URL) {
    let output = folder.file("offline.out")
    _ = FileManager.default.createFile(atPath: output.path, contents: nil)
    let handle = try FileHandle(forWritingTo: output)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: OfflineBinary.path)
    process.arguments = ["--store", folder.url.appending(path: "store").path] + arguments
    process.standardOutput = handle
    process.standardError = handle
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    try process.run()
    return (process, output)
  }

  /// What `ps` shows of process `pid`: its `/proc/<pid>/cmdline`, arguments split at NULs.
  static func commandLine(of pid: Int32) -> [String] {
    let data = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") ?? Data()
    return data.split(separator: 0, omittingEmptySubsequences: false).map {
      String(decoding: $0, as: UTF8.self)
    }
  }

  /// Waits (at most 30 s) for `condition`.
  static func eventually(_ condition: () -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + .seconds(30)
    while ContinuousClock.now < deadline {
      if condition() { return true }
      try? await Task.sleep(for: .milliseconds(20))
    }
    return false
  }

  // Moved from CommandLineSecretTests.
  /// Pins: a running `get` showed its password, its proxy's password and its bearer token
  /// to `ps`; the header that is no secret still shows.
  @Test func aRunningGetShowsNoSecretInItsCommandLine() async throws {
    let root = try TemporaryDirectory()
    try TestData.writeFile(at: root.file("slow.bin"), count: 8 << 20)
    let origin = try NginxServer(root: root.url, options: .init(limitRate: "200k"))
    try origin.start()
    let folder = try TemporaryDirectory()
    let part = folder.file("slow.bin").path + ".part"
    let (get, output) = try Self.start(
      [
        "get", origin.url("/slow.bin").absoluteString, "-o", folder.file("slow.bin").path,
        "--connections", "1", "-u", "alice:pa55-w0rd", "--proxy",
        "http://bob:pr0xy-pa55@127.0.0.1:9", "--noproxy", "*", "-H",
        "Authorization: Bearer t0ken-on-cmdline", "--header=X-Api-Key: k3y-on-cmdline",
        "--secret-header", "X-Api-Key", "-H", "X-Plain: plain-value",
      ], in: folder)
    defer { get.killIfRunning() }
    #expect(
      await Self.eventually { FileManager.default.fileExists(atPath: part) || !get.isRunning },
      "\((try? String(contentsOf: output, encoding: .utf8)) ?? "")")
    #expect(get.isRunning, "\((try? String(contentsOf: output, encoding: .utf8)) ?? "")")
    let shown = Self.commandLine(of: get.processIdentifier).joined(separator: " ")
    for secret in ["pa55-w0rd", "alice", "pr0xy-pa55", "t0ken-on-cmdline", "k3y-on-cmdline"] {
      #expect(!shown.contains(secret), "\(shown)")
    }
    #expect(shown.contains("X-Plain: plain-value"), "\(shown)")
    #expect(shown.contains("--header="), "\(shown)")
  }

  /// Pins: `serve --token` showed the token to `ps`. A token from `--token-file` or
  /// `OFFLINE_SERVE_TOKEN` never reaches the command line, and the service asks for it.
  @Test(arguments: ["option", "file", "variable"])
  func serveShowsNoTokenInItsCommandLine(source: String) async throws {
    let token = "t0ken-of-serve-\(source)-0123456789"
    let folder = try TemporaryDirectory()
    let port = try FreePort.make()
    var arguments = ["serve", "--listen", "127.0.0.1:\(port)"]
    var environment: [String: String] = [:]
    switch source {
    case "option": arguments += ["--token", token]
    case "file":
      try Data("\(token)\n".utf8).write(to: folder.file("token"))
      arguments += ["--token-file", folder.file("token").path]
    default: environment["OFFLINE_SERVE_TOKEN"] = token
    }
    let (serve, output) = try Self.start(arguments, in: folder, environment: environment)
    defer { serve.killIfRunning() }
    #expect(
      await Self.eventually {
        ((try? String(contentsOf: output, encoding: .utf8)) ?? "").contains("Serving")
      }, "\((try? String(contentsOf: output, encoding: .utf8)) ?? "")")
    let shown = Self.commandLine(of: serve.processIdentifier).joined(separator: " ")
    #expect(!shown.contains(token), "\(shown)")
    let url = "http://127.0.0.1:\(port)/api/contents"
    #expect(try await Curl.fetch(url).status == 401)
    #expect(try await Curl.fetch(url, ["-H", "Authorization: Bearer \(token)"]).status == 200)
  }
}
