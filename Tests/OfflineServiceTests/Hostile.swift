import Foundation
import TestSupport

/// Runs `scripts/hostile.py` (raw-socket clients that misbehave) against a port.
enum Hostile {
  static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appending(path: "scripts/hostile.py").path

  /// `hostile.py MODE PORT NUMBER`; what it printed, or its error output when it failed.
  static func run(_ mode: String, port: Int, _ number: Int, timeout: Double = 60) async throws
    -> String
  {
    let output = try await ProcessRunner.run(
      "/usr/bin/python3", [script, mode, "\(port)", "\(number)"], timeout: timeout)
    return output.status == 0
      ? output.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
      : "failed: " + output.stderrText
  }
}
