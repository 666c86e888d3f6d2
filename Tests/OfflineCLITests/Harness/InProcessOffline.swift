import Foundation
import OfflineCLI
import TestSupport

/// Runs `offline` inside the test process through ``OfflineTool/run(arguments:environment:standardInput:workingDirectory:console:)``:
/// the same commands, parsing, help and output as the executable, without a process. What
/// it printed comes back as an ``OfflineRun``, read as a spawned run's output is.
///
/// Nothing process-wide is used: relative paths start at `folder`, the environment is the
/// one given (by default this process's, as a child would inherit it), standard input is
/// `stdin`. Several runs may go at once.
enum InProcessOffline {
  /// Runs `offline ARGUMENTS` and waits (at most `timeout` seconds; past it the run is
  /// cancelled and the call throws `TestSupportError.processTimedOut`).
  static func run(
    _ arguments: [String], in folder: URL? = nil, stdin: OfflineStandardInput = .empty,
    environment: [String: String]? = nil, terminalColumns: Int? = nil, timeout: Double = 60
  ) async throws -> OfflineRun {
    let console = CapturedConsole(terminalColumns: terminalColumns)
    let directory =
      folder ?? URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
    let variables = environment ?? ProcessInfo.processInfo.environment
    let status = try await withThrowingTaskGroup(of: Int32?.self) { group in
      // On threads of its own: see DispatchTaskExecutor.
      group.addTask(executorPreference: DispatchTaskExecutor(label: "offline-in-process")) {
        await OfflineTool.run(
          arguments: arguments, environment: variables, standardInput: stdin,
          workingDirectory: directory, console: console)
      }
      group.addTask {
        try await Task.sleep(for: .milliseconds(Int64(timeout * 1000)))
        return nil
      }
      let first = try await group.next() ?? nil
      group.cancelAll()
      guard let first else {
        throw TestSupportError.processTimedOut(
          command: (["offline"] + arguments).joined(separator: " "), seconds: timeout)
      }
      return first
    }
    return OfflineRun(status: status, stdout: console.output, stderr: console.error)
  }

  /// Runs `offline --store STORE ARGUMENTS` with `folder` as its working folder and waits.
  static func run(
    _ arguments: [String], store: URL, in folder: URL? = nil,
    stdin: OfflineStandardInput = .empty, environment: [String: String]? = nil,
    terminalColumns: Int? = nil, timeout: Double = 60
  ) async throws -> OfflineRun {
    try await run(
      ["--store", store.path] + arguments, in: folder, stdin: stdin, environment: environment,
      terminalColumns: terminalColumns, timeout: timeout)
  }
}

/// What a run of `offline` left: its exit code and what it wrote to each stream (the same
/// reading as `ProcessRunner.Output`).
struct OfflineRun: Sendable {
  /// The exit code (`128 + signal` for a spawned run a signal ended).
  var status: Int32
  /// Everything written to standard output.
  var stdout: Data
  /// Everything written to standard error.
  var stderr: Data

  /// Standard output decoded as UTF-8 (invalid bytes are replaced).
  var stdoutText: String { String(decoding: stdout, as: UTF8.self) }
  /// Standard error decoded as UTF-8 (invalid bytes are replaced).
  var stderrText: String { String(decoding: stderr, as: UTF8.self) }

  /// What `--json` printed: one object a line, lines that are not a JSON object left out.
  var jsonEvents: [[String: Any]] {
    stdoutText.split(separator: "\n").compactMap {
      (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any]
    }
  }

  /// The `--json` events named `name`, in the order printed.
  func jsonEvents(named name: String) -> [[String: Any]] {
    jsonEvents.filter { $0["event"] as? String == name }
  }
}

extension OfflineRun {
  /// A spawned run's output, read the same way.
  init(_ output: ProcessRunner.Output) {
    self.init(status: output.status, stdout: output.stdout, stderr: output.stderr)
  }
}
