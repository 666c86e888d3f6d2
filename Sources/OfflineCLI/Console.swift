import Foundation

/// Where the tool writes: standard output for results and `--json`, standard error for
/// messages and progress. Writes are unbuffered so progress and errors show at once.
struct Console: Sendable {
  /// Whether standard error is a terminal (progress is drawn only then).
  let stderrIsTerminal: Bool

  init() {
    stderrIsTerminal = isatty(STDERR_FILENO) == 1
  }

  func out(_ text: String) {
    write(STDOUT_FILENO, text + "\n")
  }

  func err(_ text: String) {
    write(STDERR_FILENO, text + "\n")
  }

  /// Writes without a newline (for a progress line redrawn with `\r`).
  func errRaw(_ text: String) {
    write(STDERR_FILENO, text)
  }

  private func write(_ descriptor: Int32, _ text: String) {
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
