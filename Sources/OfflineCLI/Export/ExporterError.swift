import Foundation

/// Why `offline` could not get an answer from `offline-export`, the executable that exports.
enum ExporterError: Error, Sendable, Equatable, CustomStringConvertible {
  /// No `offline-export` beside the running `offline` (in `folder`, when that is known) nor
  /// on `PATH`.
  case notInstalled(folder: String?)
  /// `posix_spawn` refused to start it.
  case couldNotStart(path: String, errno: Int32)
  /// It ended without saying how the export went: killed by `signal`, or exited with
  /// `status`.
  case endedWithoutAnswer(path: String, status: Int32, signal: Int32?)

  /// A sentence a user can act on.
  var description: String {
    switch self {
    case .notInstalled(let folder):
      "offline-export is not installed beside offline"
        + (folder.map { " (in \($0))" } ?? "")
        + " or on PATH: exports run in that executable, which is built and installed with"
        + " offline ('swift build --product offline-export' builds it)."
    case .couldNotStart(let path, let code):
      "Could not start \(path): \(String(cString: strerror(code)))."
    case .endedWithoutAnswer(let path, let status, let signal):
      "\(path) ended without finishing the export ("
        + (signal.map { "killed by signal \($0)" } ?? "exit status \(status)")
        + ")."
    }
  }
}
