/// Where a run of `offline` writes, and what it knows of the terminal it writes to.
///
/// The `offline` executable writes to its file descriptors 1 and 2
/// (``OfflineTool/main(arguments:environment:blanksProcessArguments:)``); a caller that runs
/// the tool in-process (``OfflineTool/run(arguments:environment:standardInput:workingDirectory:console:)``)
/// passes its own, which may keep the text, and may say it is a terminal of some width to see
/// what a terminal is shown (progress lines, redraws).
///
/// ```swift
/// final class Lines: OfflineConsole, @unchecked Sendable { ... }
/// let code = await OfflineTool.run(
///   arguments: ["--help"], environment: [:], standardInput: .empty,
///   workingDirectory: URL(fileURLWithPath: "/tmp"), console: lines)
/// ```
///
/// `write(_:to:)` is called from any thread, once per message or redraw, as the command goes;
/// it must not block for long.
public protocol OfflineConsole: Sendable {
  /// Writes `text` as it is (newlines included) to standard output or standard error.
  func write(_ text: String, to stream: OfflineConsoleStream)

  /// Whether standard error is a terminal: progress lines are drawn only then.
  var errorIsTerminal: Bool { get }

  /// The terminal's width in columns when it is known (nil: `$COLUMNS`, else 80, is used).
  /// Asked again before each redraw, so a resized window is followed.
  var terminalColumns: Int? { get }
}

/// One of the two streams a run writes to.
public enum OfflineConsoleStream: Sendable, Equatable {
  /// Standard output: results and `--json` lines.
  case output
  /// Standard error: messages, errors and progress.
  case error
}
