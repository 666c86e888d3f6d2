import Foundation

/// Where the tool writes: standard output for results and `--json`, standard error for
/// messages and progress, through the run's ``OfflineConsole``.
struct Console: Sendable {
  /// Where the text goes.
  let sink: any OfflineConsole
  /// `$COLUMNS` of the run's environment, the width when the terminal does not say.
  let columnsVariable: String?

  init(_ sink: any OfflineConsole, environment: [String: String] = [:]) {
    self.sink = sink
    columnsVariable = environment["COLUMNS"]
  }

  /// Whether standard error is a terminal (progress is drawn only then).
  var stderrIsTerminal: Bool { sink.errorIsTerminal }

  /// The width to draw a progress line in (see ``TerminalSize``).
  var columns: Int {
    TerminalSize.columns(terminal: sink.terminalColumns, variable: columnsVariable)
  }

  func out(_ text: String) {
    sink.write(text + "\n", to: .output)
  }

  func err(_ text: String) {
    sink.write(text + "\n", to: .error)
  }

  /// Writes without a newline (for a progress line redrawn with `\r`).
  func errRaw(_ text: String) {
    sink.write(text, to: .error)
  }
}
