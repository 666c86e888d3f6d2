import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Runs a command-line tool to completion with a time limit and collects what it printed.
///
/// Output goes through temporary files rather than pipes, so a chatty child can never block
/// on a full pipe while we wait for it. The wait suspends the calling task (see
/// ``ProcessExit``): no thread of the concurrency pool is held while the child runs, so a
/// child that talks to a service of this process cannot deadlock a parallel test run.
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
    let child = try Child(executable, arguments, environment: environment)
    if await !child.exit.wait(timeout: timeout) {
      kill(child.process.processIdentifier, SIGKILL)
      _ = await child.exit.wait(timeout: 5)
      throw TestSupportError.processTimedOut(command: child.command, seconds: timeout)
    }
    return child.output()
  }

  /// Runs a command like `run(_:_:timeout:environment:)` and throws unless it exits with
  /// status 0.
  ///
  /// - Returns: The output of the successful run.
  /// - Throws: `TestSupportError.processFailed` with the command's stderr on failure.
  @discardableResult
  public static func checked(
    _ executable: String, _ arguments: [String], timeout: Double = 30
  ) async throws -> Output {
    try await run(executable, arguments, timeout: timeout).succeeded(executable, arguments)
  }

  /// Runs a short tool that depends on nothing in this process (openssl, ip) and blocks the
  /// calling thread until it ends, at most `timeout` seconds: only for callers that cannot
  /// suspend (an initializer, `deinit`, a `static let`). Throws like `checked` unless
  /// `checking` is false.
  @discardableResult
  static func blocking(
    _ executable: String, _ arguments: [String], timeout: Double = 30, checking: Bool = true
  ) throws -> Output {
    let child = try Child(executable, arguments, environment: nil)
    if !child.exit.blockingWait(timeout: timeout) {
      kill(child.process.processIdentifier, SIGKILL)
      _ = child.exit.blockingWait(timeout: 5)
      throw TestSupportError.processTimedOut(command: child.command, seconds: timeout)
    }
    let output = child.output()
    return checking ? try output.succeeded(executable, arguments) : output
  }

  /// A started child whose output goes to two files of a scratch directory.
  private struct Child {
    let scratch: TemporaryDirectory
    let process = Process()
    let exit: ProcessExit
    let command: String

    init(_ executable: String, _ arguments: [String], environment: [String: String]?) throws {
      scratch = try TemporaryDirectory(prefix: "offlinekit-process")
      command = ([executable] + arguments).joined(separator: " ")
      let outHandle = try FileHandle.creatingEmptyFile(at: scratch.file("stdout"))
      let errHandle = try FileHandle.creatingEmptyFile(at: scratch.file("stderr"))
      // The child has its own copies of the descriptors once it runs.
      defer {
        try? outHandle.close()
        try? errHandle.close()
      }
      process.executableURL = URL(fileURLWithPath: executable)
      process.arguments = arguments
      if let environment { process.environment = environment }
      process.standardInput = FileHandle.nullDevice
      process.standardOutput = outHandle
      process.standardError = errHandle
      exit = ProcessExit(process)
      try process.run()
    }

    /// What the ended child left behind.
    func output() -> Output {
      let status =
        process.terminationReason == .uncaughtSignal
        ? 128 + process.terminationStatus : process.terminationStatus
      return Output(
        status: status,
        stdout: (try? Data(contentsOf: scratch.file("stdout"))) ?? Data(),
        stderr: (try? Data(contentsOf: scratch.file("stderr"))) ?? Data())
    }
  }
}

extension ProcessRunner.Output {
  /// This output, or `TestSupportError.processFailed` unless the status is 0.
  fileprivate func succeeded(_ executable: String, _ arguments: [String]) throws -> Self {
    guard status == 0 else {
      throw TestSupportError.processFailed(
        command: ([executable] + arguments).joined(separator: " "), status: status,
        stderr: stderrText)
    }
    return self
  }
}
