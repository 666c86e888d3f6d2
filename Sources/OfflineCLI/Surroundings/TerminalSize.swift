/// The width of the terminal standard error is on: what the terminal says (`TIOCGWINSZ`),
/// else `$COLUMNS`, else 80. Asked again before each redraw, so a resized window is followed.
enum TerminalSize {
  /// Columns, at least 20.
  static func columns(terminal: Int?, variable: String?) -> Int {
    if let terminal, terminal > 0 { return max(20, terminal) }
    if let variable, let columns = Int(variable), columns > 0 { return max(20, columns) }
    return 80
  }
}
