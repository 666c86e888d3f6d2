import ExportChannel
import Foundation

/// Where the exporter writes: its messages on standard output, one JSON line each, and the
/// few lines meant for a person (a usage error) on standard error. Unbuffered writes, so that
/// `offline` sees each progress line when it is made.
enum MessageOutput {
  /// Writes `message` as one line on standard output.
  static func write(_ message: ExportMessage) {
    put(message.line + "\n", to: STDOUT_FILENO)
  }

  /// Writes `text` and a newline on standard error.
  static func error(_ text: String) {
    put(text + "\n", to: STDERR_FILENO)
  }

  /// Writes all of `text`, or as much as the descriptor takes: a reader that went away
  /// (`EPIPE`) is not this process's failure, and its parent-death signal ends it anyway.
  private static func put(_ text: String, to descriptor: Int32) {
    var bytes = Array(text.utf8)
    var offset = 0
    while offset < bytes.count {
      let written = bytes.withUnsafeMutableBytes { buffer in
        Foundation.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
      }
      if written > 0 {
        offset += written
      } else if written < 0 && errno == EINTR {
        continue
      } else {
        return
      }
    }
  }
}
