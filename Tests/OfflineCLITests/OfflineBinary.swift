import Foundation
import TestSupport

/// The built `offline` executable, beside the test bundle in the build folder, run as a user
/// runs it.
enum OfflineBinary {
  static let path = BuiltProduct.path("offline")

  /// Runs `offline ARGUMENTS` and waits (bounded) for it.
  static func run(_ arguments: [String], timeout: Double = 60) throws -> ProcessRunner.Output {
    try ProcessRunner.run(path, arguments, timeout: timeout)
  }

  /// Runs `offline --store STORE ARGUMENTS` in `folder` (its current directory) and waits.
  static func run(
    _ arguments: [String], store: URL, in folder: URL, timeout: Double = 60
  ) throws -> ProcessRunner.Output {
    let quoted = (["--store", store.path] + arguments).map { "'" + $0 + "'" }.joined(separator: " ")
    return try ProcessRunner.run(
      "/bin/sh", ["-c", "cd '\(folder.path)' && exec '\(path)' \(quoted)"], timeout: timeout)
  }

  /// Starts `offline --store STORE ARGUMENTS` without waiting; the caller signals it.
  static func start(_ arguments: [String], store: URL) throws -> Process {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = ["--store", store.path] + arguments
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    return process
  }
}

extension Process {
  /// Waits at most `seconds` for the process to end; kills it if it does not.
  func waitBounded(seconds: Double) -> Int32 {
    let deadline = Date().addingTimeInterval(seconds)
    while isRunning && Date() < deadline { usleep(10_000) }
    if isRunning {
      kill(processIdentifier, SIGKILL)
      waitUntilExit()
    }
    return terminationStatus
  }
}
