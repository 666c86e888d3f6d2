#if canImport(Glibc)
  import Glibc
#endif

/// The one error type of `TestSupport`: something a test fixture could not set up or run.
///
/// Every case carries the context needed to act on it without a debugger: the failing system
/// call and `errno`, the command line and its stderr, or the server's error log.
public enum TestSupportError: Error, CustomStringConvertible, Sendable {
  /// A POSIX call failed; `errno` is the value it left behind.
  case systemCall(_ name: String, errno: Int32)
  /// A child process exited with a non-zero status.
  case processFailed(command: String, status: Int32, stderr: String)
  /// A child process did not finish within its time limit and was killed.
  case processTimedOut(command: String, seconds: Double)
  /// A child process printed something we could not parse.
  case unexpectedOutput(command: String, output: String)
  /// nginx exited or never accepted connections; `log` holds its error log and stderr.
  case nginxDidNotStart(reason: String, log: String)

  /// A sentence describing the failure and what it carries.
  public var description: String {
    switch self {
    case .systemCall(let name, let code):
      return "\(name) failed: \(String(cString: strerror(code))) (errno \(code))."
    case .processFailed(let command, let status, let stderr):
      return "`\(command)` exited with status \(status): \(stderr)"
    case .processTimedOut(let command, let seconds):
      return "`\(command)` did not finish within \(seconds) s and was killed."
    case .unexpectedOutput(let command, let output):
      return "`\(command)` printed output that could not be parsed: \(output)"
    case .nginxDidNotStart(let reason, let log):
      return "nginx did not start: \(reason). Its log says:\n\(log)"
    }
  }
}
