import Foundation
import OfflineCLI
import Synchronization

/// A console that keeps what a run of `offline` writes, standard output and standard error
/// apart, and says whether it is a terminal and how wide, so terminal-only output (progress
/// lines, redraws) can be looked at without one.
final class CapturedConsole: OfflineConsole {
  let errorIsTerminal: Bool
  private let columns: Int?
  private let written = Mutex<(output: Data, error: Data)>((Data(), Data()))

  /// A console that is a terminal `columns` wide when `columns` is given, else not one.
  init(terminalColumns columns: Int? = nil) {
    errorIsTerminal = columns != nil
    self.columns = columns
  }

  var terminalColumns: Int? { columns }

  func write(_ text: String, to stream: OfflineConsoleStream) {
    written.withLock { written in
      switch stream {
      case .output: written.output.append(contentsOf: text.utf8)
      case .error: written.error.append(contentsOf: text.utf8)
      }
    }
  }

  /// Everything written to standard output so far.
  var output: Data { written.withLock { $0.output } }
  /// Everything written to standard error so far.
  var error: Data { written.withLock { $0.error } }
}
