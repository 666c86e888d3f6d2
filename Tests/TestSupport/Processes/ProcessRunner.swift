import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Runs a command-line tool to completion with a time limit and collects what it printed.
///
/// Output goes through temporary files rather than pipes, so a chatty child can never block
/// on a full pipe while we wait for it.
///
/// ```swift
/// let result = try ProcessRunner.run("/usr/bin/curl", ["-s", url.absoluteString])
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

  /// Runs a command like `run(_:_:timeout:)` and throws unless it exits with status 0.
  ///
  /// - Returns: The output of the successful run.
  /// - Throws: `TestSupportError.processFailed` with the command's stderr on failure.
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
