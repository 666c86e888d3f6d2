import Foundation
import TestSupport

/// The built `offline` executable, beside the test bundle in the build folder, run as a user
/// runs it.
enum OfflineBinary {
  static let path = BuiltProduct.path("offline")

  /// Runs `offline ARGUMENTS` and waits (bounded) for it.
  static func run(_ arguments: [String], timeout: Double = 60) async throws -> ProcessRunner.Output
  {
    try await ProcessRunner.run(path, arguments, timeout: timeout)
  }

  /// Runs `offline --store STORE ARGUMENTS` in `folder` (its current directory) and waits.
  static func run(
    _ arguments: [String], store: URL, in folder: URL, timeout: Double = 60
  ) async throws -> ProcessRunner.Output {
    let quoted = (["--store", store.path] + arguments).map { "'" + $0 + "'" }.joined(separator: " ")
    return try await ProcessRunner.run(
      "/bin/sh", ["-c", "cd '\(folder.path)' && exec '\(path)' \(quoted)"], timeout: timeout)
  }

  /// Runs `offline --store STORE ARGUMENTS` with crash point `point` armed
  /// (`OFFLINEKIT_CRASH_POINT`, debug builds only) and waits (at most 60 s); a run that
  /// reaches the point ends with status 137.
  static func run(_ arguments: [String], store: URL, crashingAt point: String) async throws
    -> ProcessRunner.Output
  {
    let quoted = (["--store", store.path] + arguments).map { "'" + $0 + "'" }
    return try await ProcessRunner.run(
      "/bin/sh",
      ["-c", "OFFLINEKIT_CRASH_POINT='\(point)' exec '\(path)' " + quoted.joined(separator: " ")],
      timeout: 60)
  }

  /// Starts `offline --store STORE ARGUMENTS` without waiting; the caller signals it. With
  /// `environment`, that is the child's whole environment; without, it inherits this one.
  static func start(
    _ arguments: [String], store: URL, environment: [String: String]? = nil
  ) throws -> Process {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = ["--store", store.path] + arguments
    if let environment { process.environment = environment }
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    return process
  }

  /// Starts `offline --store STORE ARGUMENTS` `times` times and SIGKILLs each run after a
  /// random pause within `pause` (microseconds), as a crash or an out-of-memory kill would
  /// strike, then waits for it to end and calls `afterEach`. Returns how many runs were still
  /// running when their kill came.
  @discardableResult
  static func killRepeatedly(
    _ arguments: [String], store: URL, times: Int, pause: ClosedRange<UInt32>,
    environment: [String: String]? = nil, afterEach: () throws -> Void = {}
  ) throws -> Int {
    var generator = SystemRandomNumberGenerator()
    var kills = 0
    for _ in 0..<times {
      let process = try start(arguments, store: store, environment: environment)
      usleep(UInt32.random(in: pause, using: &generator))
      if process.isRunning {
        kill(process.processIdentifier, SIGKILL)
        kills += 1
      }
      _ = process.waitBounded(seconds: 10)
      try afterEach()
    }
    return kills
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
