import Foundation

/// The process's own standard output and error (file descriptors 1 and 2), written
/// unbuffered so progress and errors show at once; the `offline` executable's console.
struct StandardStreamsConsole: OfflineConsole {
  /// Read once: whether descriptor 2 is a terminal.
  let errorIsTerminal = isatty(STDERR_FILENO) == 1

  /// `TIOCGWINSZ` on descriptor 2, asked each time.
  var terminalColumns: Int? {
    var size = winsize()
    guard ioctl(STDERR_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
    return Int(size.ws_col)
  }

  func write(_ text: String, to stream: OfflineConsoleStream) {
    let descriptor = stream == .output ? STDOUT_FILENO : STDERR_FILENO
    var bytes = Array(text.utf8)
    var start = 0
    while start < bytes.count {
      let wrote = bytes.withUnsafeMutableBytes { buffer in
        Glibc.write(descriptor, buffer.baseAddress! + start, buffer.count - start)
      }
      if wrote < 0, errno == EINTR { continue }
      guard wrote > 0 else { return }
      start += wrote
    }
  }
}
