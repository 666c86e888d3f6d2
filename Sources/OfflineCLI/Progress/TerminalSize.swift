import Foundation

/// The width of the terminal standard error is on: `TIOCGWINSZ`, else `$COLUMNS`, else 80.
/// Asked again before each redraw, so a resized window is followed.
enum TerminalSize {
  /// Columns, at least 20.
  static func columns(environment: [String: String] = ProcessInfo.processInfo.environment)
    -> Int
  {
    var size = winsize()
    if ioctl(STDERR_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 {
      return max(20, Int(size.ws_col))
    }
    if let text = environment["COLUMNS"], let columns = Int(text), columns > 0 {
      return max(20, columns)
    }
    return 80
  }
}
