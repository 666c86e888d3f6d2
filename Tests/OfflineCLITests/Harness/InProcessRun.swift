import Foundation
import OfflineCLI
import Synchronization
import TestSupport

/// A command of `offline` running inside the test process in the background, for a test
/// that needs a command under way while it does something else (plants a link, pauses or
/// cancels from another command) but not a process: ``stop(seconds:)`` stops it as SIGINT
/// stops the executable (partial data and journal kept), ``finish(seconds:)`` waits for it.
///
/// It runs on threads of its own (see ``DispatchTaskExecutor``); every wait is awaited and
/// bounded.
final class InProcessRun: Sendable {
  /// The exit code an in-process `run` or `get` returns when its task is cancelled: 130,
  /// as the executable stopped by SIGINT.
  static let stoppedStatus: Int32 = 130

  /// The exit code once the command has ended, shared with the command's task.
  private final class Ending: Sendable {
    let status = Mutex<Int32?>(nil)
  }

  private let console: CapturedConsole
  private let task: Task<Void, Never>
  private let ending: Ending

  /// Starts `offline --store STORE ARGUMENTS` in `folder` (by default this process's
  /// current folder), with this process's environment.
  init(_ arguments: [String], store: URL, in folder: URL? = nil) {
    let console = CapturedConsole()
    let ending = Ending()
    let directory =
      folder ?? URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
    let environment = ProcessInfo.processInfo.environment
    self.console = console
    self.ending = ending
    task = Task(executorPreference: DispatchTaskExecutor(label: "offline-in-background")) {
      let code = await OfflineTool.run(
        arguments: ["--store", store.path] + arguments, environment: environment,
        standardInput: .empty, workingDirectory: directory, console: console)
      ending.status.withLock { $0 = code }
    }
  }

  /// Whether the command is still working.
  var isRunning: Bool { ending.status.withLock { $0 == nil } }

  /// Waits at most `seconds` for the command to end by itself: what it left, or nil when it
  /// was still running then (it is stopped, and waited for 10 s more, before this returns).
  func finish(seconds: Double) async -> OfflineRun? {
    if let ended = await waitForEnd(seconds: seconds) { return ended }
    _ = await stop(seconds: 10)
    return nil
  }

  /// Cancels the command's task, as SIGINT stops the executable, and waits at most `seconds`
  /// for it to end: what it left, or nil when it did not end in time.
  func stop(seconds: Double = 10) async -> OfflineRun? {
    task.cancel()
    return await waitForEnd(seconds: seconds)
  }

  /// Polls every 10 ms, at most `seconds`, for the command's exit code.
  private func waitForEnd(seconds: Double) async -> OfflineRun? {
    let deadline = ContinuousClock.now + .milliseconds(Int64(seconds * 1000))
    while isRunning && ContinuousClock.now < deadline {
      try? await Task.sleep(for: .milliseconds(10))
    }
    guard let code = ending.status.withLock({ $0 }) else { return nil }
    return OfflineRun(status: code, stdout: console.output, stderr: console.error)
  }

  /// Stops the command if a failed expectation left it running (without waiting: a `defer`
  /// cannot await).
  func stopIfRunning() {
    if isRunning { task.cancel() }
  }
}
