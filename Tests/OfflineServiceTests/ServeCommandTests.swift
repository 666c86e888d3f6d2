import Foundation
import OfflineKit
import OfflineService
import TestSupport
import TestTiming
import Testing

/// Issue 16, item 1: `offline serve` works the queue as `run` does, under the same lock.
@Suite("offline serve, the command", .serialized, .timed)
struct ServeCommandTests {
  // Pins: `run` and `serve` must never both work one store (two runners would download
  // the same files at once).
  @Test func refusesToRunTheQueueWhileServeWorksIt() async throws {
    let store = try TemporaryDirectory(prefix: "offlinekit-serve-cli")
    let port = try FreePort.make()
    let output = store.file("serve.out")
    let serve = try ServeBinary.start(
      ["serve", "--listen", "127.0.0.1:\(port)"], store: store.url, output: output)
    defer { serve.killIfRunning() }
    let printed = try await ServeBinary.waitForLine(in: output, containing: "Serving")
    #expect(printed.contains("http://127.0.0.1:\(port)/"))
    let run = try await ProcessRunner.run(
      ServeBinary.path, ["--store", store.path, "run"], timeout: 30)
    #expect(run.status == 1)
    #expect(run.stderrText.contains("is running the queue"), "\(run.stderrText)")
    let second = try await ProcessRunner.run(
      ServeBinary.path,
      ["--store", store.path, "serve", "--listen", "127.0.0.1:\(try FreePort.make())"],
      timeout: 30)
    #expect(second.status == 1)
    #expect(try await Curl.fetch("http://127.0.0.1:\(port)/content/x/").status == 404)
    #expect(await serve.stopBounded() == 130)
  }

  // Pins: `serve --listen` on every interface without --token must make up a token, print
  // it in the link, and refuse requests that do not show it (connections come from
  // 127.0.0.1 only here).
  @Test func generatesPrintsAndRequiresATokenOnANonLoopbackListener() async throws {
    let store = try TemporaryDirectory(prefix: "offlinekit-serve-all")
    let port = try FreePort.make()
    let output = store.file("serve.out")
    let serve = try ServeBinary.start(
      ["serve", "--listen", "0.0.0.0:\(port)"], store: store.url, output: output)
    defer { serve.killIfRunning() }
    let printed = try await ServeBinary.waitForLine(in: output, containing: "Serving")
    let token = try #require(printed.split(separator: "?token=").last.map(String.init))
    #expect(token.count == 32)
    #expect(ServiceToken.isValid(token))
    let url = "http://127.0.0.1:\(port)/api/contents"
    #expect(try await Curl.fetch(url).status == 401)
    #expect(try await Curl.fetch(url, ["-H", "Authorization: Bearer \(token)"]).status == 200)
    #expect(await serve.stopBounded() == 130)
  }

  // Pins: a listener other machines can reach without a token must be impossible.
  @Test func refusesANonLoopbackListenerWithoutAToken() async throws {
    let store = try TemporaryDirectory(prefix: "offlinekit-serve-token")
    let manager = try OfflineManager(directory: store.url)
    #expect(throws: OfflineServiceError(.tokenRequired("0.0.0.0:0"))) {
      try OfflineService(
        manager: manager, configuration: .init(address: ListenAddress(host: "0.0.0.0", port: 0)))
    }
    #expect(throws: OfflineServiceError(.invalidToken)) {
      try OfflineService(manager: manager, configuration: .init(token: "short"))
    }
  }
}

/// The built `offline` executable, started as a user starts `offline serve`.
enum ServeBinary {
  static let path = BuiltProduct.path("offline")

  /// Starts `offline --store STORE ARGUMENTS` with standard output into `output`.
  static func start(_ arguments: [String], store: URL, output: URL) throws -> Process {
    _ = FileManager.default.createFile(atPath: output.path, contents: nil)
    let handle = try FileHandle(forWritingTo: output)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = ["--store", store.path] + arguments
    process.standardOutput = handle
    process.standardError = handle
    try process.run()
    return process
  }

  /// Starts `offline --store STORE serve` on `127.0.0.1:port`, its output into `output`, and
  /// waits until it serves.
  static func serve(store: URL, port: Int, output: URL) async throws -> Process {
    let process = try start(
      ["serve", "--listen", "127.0.0.1:\(port)"], store: store, output: output)
    _ = try await waitForLine(in: output, containing: "Serving")
    return process
  }

  /// Adds `url` to the queue of the store at `store` (`offline add`, with `arguments`
  /// before the URL); the id it printed.
  static func add(_ url: URL, store: URL, _ arguments: [String] = []) async throws -> String {
    let added = try await ProcessRunner.run(
      path, ["--store", store.path, "add"] + arguments + [url.absoluteString], timeout: 30)
    guard added.status == 0, let id = added.stdoutText.split(separator: "\n").last else {
      throw FixtureError.timedOut("offline add failed: \(added.stderrText)")
    }
    return String(id)
  }

  /// Waits at most `timeout` seconds until the service on `port` says content `id` is
  /// `state` (`GET /api/contents/<id>`); the last state it said.
  static func waitForState(
    _ state: String, of id: String, port: Int, timeout: Double = 120
  ) async throws -> String {
    let deadline = Date().addingTimeInterval(timeout)
    var said = ""
    while said != state, Date() < deadline {
      try await Task.sleep(for: .milliseconds(100))
      let reply = try? await Curl.fetch("http://127.0.0.1:\(port)/api/contents/\(id)")
      said = (reply?.json as? [String: Any])?["state"] as? String ?? ""
    }
    return said
  }

  /// The first line of `file` holding `text`, waiting at most `timeout` seconds for it
  /// (polling with `Task.sleep`).
  static func waitForLine(in file: URL, containing text: String, timeout: Double = 30)
    async throws -> String
  {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
      let content = (try? String(contentsOf: file, encoding: .utf8)) ?? ""
      if let line = content.split(separator: "\n").first(where: { $0.contains(text) }) {
        return String(line)
      }
      try await Task.sleep(for: .milliseconds(50))
    }
    throw FixtureError.timedOut(
      "no line with '\(text)' in: \((try? String(contentsOf: file, encoding: .utf8)) ?? "")")
  }
}

extension Process {
  /// Sends SIGINT and waits at most 20 s (then SIGKILL, and 5 s more); the exit status.
  /// Polls with `Task.sleep`, so no thread is held while the child shuts down.
  func stopBounded() async -> Int32 {
    if isRunning { kill(processIdentifier, SIGINT) }
    let deadline = Date().addingTimeInterval(20)
    while isRunning && Date() < deadline { try? await Task.sleep(for: .milliseconds(10)) }
    if isRunning {
      kill(processIdentifier, SIGKILL)
      let last = Date().addingTimeInterval(5)
      while isRunning && Date() < last { try? await Task.sleep(for: .milliseconds(10)) }
    }
    return terminationStatus
  }

  /// Kills the process if it still runs, without waiting: the safety net of a `defer`,
  /// which cannot suspend.
  func killIfRunning() {
    if isRunning { kill(processIdentifier, SIGKILL) }
  }
}
