import Foundation

/// What one run of the tool gets from whoever runs it, instead of reading the process:
/// its environment, standard input, working folder and console, and whether it owns the
/// process (the executable) or runs inside another program (a test, an app).
struct CommandHost: Sendable {
  /// The variables the run sees (the store's location, proxies, `COLUMNS`...).
  let environment: [String: String]
  /// `add -i -` and the password prompt read this.
  let standardInput: OfflineStandardInput
  /// Relative paths among the arguments, and the default output folder, start here.
  let workingDirectory: URL
  /// Where the output goes.
  let console: Console
  /// Whether the run is the process (the `offline` executable): only then may it end the
  /// process (`serve`'s shutdown deadline) or change process-wide state.
  let ownsProcess: Bool

  init(
    environment: [String: String], standardInput: OfflineStandardInput, workingDirectory: URL,
    console: any OfflineConsole, ownsProcess: Bool
  ) {
    self.environment = environment
    self.standardInput = standardInput
    self.workingDirectory = workingDirectory.standardizedFileURL
    self.console = Console(console, environment: environment)
    self.ownsProcess = ownsProcess
  }

  /// `path` made absolute against ``workingDirectory`` (`-`, standard input, is kept).
  func absolutePath(_ path: String) -> String {
    guard !path.hasPrefix("/"), path != "-", !path.isEmpty else { return path }
    return (workingDirectory.path as NSString).appendingPathComponent(path)
      + (path.hasSuffix("/") ? "/" : "")
  }
}

/// A console that drops everything: the host of arguments parsed outside a run.
private struct DiscardingConsole: OfflineConsole {
  func write(_ text: String, to stream: OfflineConsoleStream) {}
  var errorIsTerminal: Bool { false }
  var terminalColumns: Int? { nil }
}

extension CommandHost {
  /// No environment, an empty standard input, `/` and a console that drops everything:
  /// what arguments parsed outside a run (declaration tests) see.
  static let detached = CommandHost(
    environment: [:], standardInput: .empty, workingDirectory: URL(fileURLWithPath: "/"),
    console: DiscardingConsole(), ownsProcess: false)
}
