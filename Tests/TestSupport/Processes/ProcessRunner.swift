import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// Runs a command-line tool to completion with a time limit and collects what it printed.
///
/// Output goes through temporary files rather than pipes, so a chatty child can never block
/// on a full pipe while we wait for it. The wait is awaited, never blocked on: the child's
/// termination handler resumes the caller, so a test that waits for a process leaves the
/// concurrency pool's threads to the code under test.
///
/// ```swift
/// let result = try await ProcessRunner.run("/usr/bin/curl", ["-s", url.absoluteString])
/// #expect(result.status == 0)
/// ```
public enum ProcessRunner {
  /// What a finished child process left behind.
  public struct Output: Sendable {
    /// The exit status, or `128 + signal` when a signal ended the process.
    public var status: Int32
    /// Everything the process wrote to standard output.
    public var stdout: Data
    /// Everything the process wrote to standard error.
    public var stderr: Data

    /// Standard output decoded as UTF-8 (invalid bytes are replaced).
    public var stdoutText: String { String(decoding: stdout, as: UTF8.self) }
    /// Standard error decoded as UTF-8 (invalid bytes are replaced).
    public var stderrText: String { String(decoding: stderr, as: UTF8.self) }
  }

  /// Runs `executable` with `arguments` and waits for it, at most `timeout` seconds.
  ///
  /// A non-zero exit status is not an error here; check `Output.status`.
  ///
  /// - Parameters:
  ///   - executable: The absolute path of the program, such as `/usr/bin/curl`.
  ///   - arguments: The arguments, without the program name.
  ///   - timeout: Seconds to wait before the child is killed and the call throws.
  ///   - environment: The child's whole environment; nil inherits this process's.
  /// - Throws: `TestSupportError.processTimedOut` when the limit passes, or the error
  ///   `Process.run()` reports when the program cannot be started.
  public static func run(
    _ executable: String, _ arguments: [String], timeout: Double = 30,
    environment: [String: String]? = nil
  ) async throws -> Output {
    let scratch = try TemporaryDirectory(prefix: "offlinekit-process")
    let outURL = scratch.file("stdout")
    let errURL = scratch.file("stderr")
    let outHandle = try FileHandle.creatingEmptyFile(at: outURL)
    let errHandle = try FileHandle.creatingEmptyFile(at: errURL)
    defer {
      try? outHandle.close()
      try? errHandle.close()
    }

    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    if let environment { process.environment = environment }
    process.standardInput = FileHandle.nullDevice
    process.standardOutput = outHandle
    process.standardError = errHandle
    let exited = ExitSignal()
    process.terminationHandler = { _ in exited.fire() }
    try process.run()

    if await !exited.wait(seconds: timeout) {
      kill(process.processIdentifier, SIGKILL)
      _ = await exited.wait(seconds: 5)
      let command = ([executable] + arguments).joined(separator: " ")
      throw TestSupportError.processTimedOut(command: command, seconds: timeout)
    }
    let status =
      process.terminationReason == .uncaughtSignal
      ? 128 + process.terminationStatus : process.terminationStatus
    return Output(
      status: status,
      stdout: (try? Data(contentsOf: outURL)) ?? Data(),
      stderr: (try? Data(contentsOf: errURL)) ?? Data()
    )
  }

  /// Runs a command like `run(_:_:timeout:)` and throws unless it exits with status 0.
  ///
  /// - Returns: The output of the successful run.
  /// - Throws: `TestSupportError.processFailed` with the command's stderr on failure.
  @discardableResult
  public static func checked(
    _ executable: String, _ arguments: [String], timeout: Double = 30
  ) async throws -> Output {
    let output = try await run(executable, arguments, timeout: timeout)
    guard output.status == 0 else {
      throw TestSupportError.processFailed(
        command: ([executable] + arguments).joined(separator: " "),
        status: output.status, stderr: output.stderrText)
    }
    return output
  }
}

extension ProcessRunner {
  /// The blocking form of ``run(_:_:timeout:environment:)``, for synchronous callers only
  /// (fixture initializers, `deinit`, static probes) until they become async: it holds its
  /// thread until the child exits. An async caller always gets the awaiting form.
  public static func run(
    _ executable: String, _ arguments: [String], timeout: Double = 30,
    environment: [String: String]? = nil
  ) throws -> Output {
    let scratch = try TemporaryDirectory(prefix: "offlinekit-process")
    let outURL = scratch.file("stdout")
    let errURL = scratch.file("stderr")
    let outHandle = try FileHandle.creatingEmptyFile(at: outURL)
    let errHandle = try FileHandle.creatingEmptyFile(at: errURL)
    defer {
      try? outHandle.close()
      try? errHandle.close()
    }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    if let environment { process.environment = environment }
    process.standardInput = FileHandle.nullDevice
    process.standardOutput = outHandle
    process.standardError = errHandle
    let exited = DispatchSemaphore(value: 0)
    process.terminationHandler = { _ in exited.signal() }
    try process.run()
    if exited.wait(timeout: .now() + timeout) == .timedOut {
      kill(process.processIdentifier, SIGKILL)
      _ = exited.wait(timeout: .now() + 5)
      let command = ([executable] + arguments).joined(separator: " ")
      throw TestSupportError.processTimedOut(command: command, seconds: timeout)
    }
    let status =
      process.terminationReason == .uncaughtSignal
      ? 128 + process.terminationStatus : process.terminationStatus
    return Output(
      status: status,
      stdout: (try? Data(contentsOf: outURL)) ?? Data(),
      stderr: (try? Data(contentsOf: errURL)) ?? Data()
    )
  }

  /// The blocking form of ``checked(_:_:timeout:)``, for synchronous callers only.
  @discardableResult
  public static func checked(
    _ executable: String, _ arguments: [String], timeout: Double = 30
  ) throws -> Output {
    let output = try run(executable, arguments, timeout: timeout)
    guard output.status == 0 else {
      throw TestSupportError.processFailed(
        command: ([executable] + arguments).joined(separator: " "),
        status: output.status, stderr: output.stderrText)
    }
    return output
  }
}

/// A child's exit, fired once from its termination handler and awaited with a time limit.
private final class ExitSignal: Sendable {
  private struct State {
    var fired = false
    var waiter: CheckedContinuation<Bool, Never>?
    /// Counts the waits, so a late timer of an earlier wait never ends a later one.
    var generation = 0
    var timer: Task<Void, Never>?
  }
  private let state = Mutex(State())

  /// Notes the exit and resumes the waiter, if one waits.
  func fire() {
    let (waiter, timer) = state.withLock { state in
      state.fired = true
      defer { (state.waiter, state.timer) = (nil, nil) }
      return (state.waiter, state.timer)
    }
    timer?.cancel()
    waiter?.resume(returning: true)
  }

  /// True once the exit came, false when `seconds` passed first. One waiter at a time.
  func wait(seconds: Double) async -> Bool {
    await withCheckedContinuation { continuation in
      let generation: Int? = state.withLock { state in
        if state.fired { return nil }
        state.generation += 1
        state.waiter = continuation
        return state.generation
      }
      guard let generation else { return continuation.resume(returning: true) }
      let timer = Task { [weak self] in
        guard (try? await Task.sleep(for: .milliseconds(Int64(seconds * 1000)))) != nil else {
          return  // cancelled: the exit came first
        }
        self?.expire(generation)
      }
      let kept = state.withLock { state in
        guard state.generation == generation, state.waiter != nil else { return false }
        state.timer = timer
        return true
      }
      if !kept { timer.cancel() }
    }
  }

  /// Resumes the waiter of wait `generation` with false (the time is up), if it still waits.
  private func expire(_ generation: Int) {
    let waiter = state.withLock { state -> CheckedContinuation<Bool, Never>? in
      guard state.generation == generation else { return nil }
      defer { (state.waiter, state.timer) = (nil, nil) }
      return state.waiter
    }
    waiter?.resume(returning: false)
  }
}
