import Foundation
import TestSupport

/// The built `offline` executable, beside the test bundle in the build folder, run as a user
/// runs it: only for what needs a real process (signals, kills, crash points, argv seen by
/// `ps`, a terminal under tmux, several processes on one store, peak RSS). Everything else
/// runs in-process through ``InProcessOffline``. Every wait here is awaited.
enum OfflineBinary {
  static let path = BuiltProduct.path("offline")

  /// Runs `offline ARGUMENTS` and waits (bounded) for it.
  static func run(_ arguments: [String], timeout: Double = 60) async throws
    -> ProcessRunner.Output
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
    environment: [String: String]? = nil, afterEach: () async throws -> Void = {}
  ) async throws -> Int {
    var generator = SystemRandomNumberGenerator()
    var kills = 0
    for _ in 0..<times {
      let process = try start(arguments, store: store, environment: environment)
      try await Task.sleep(for: .microseconds(UInt32.random(in: pause, using: &generator)))
      if process.isRunning {
        kill(process.processIdentifier, SIGKILL)
        kills += 1
      }
      _ = await process.waitBounded(seconds: 10)
      try await afterEach()
    }
    return kills
  }
}

extension Process {
  /// Waits at most `seconds` for the process to end, polling every 10 ms without holding a
  /// thread; kills it if it does not end in time (and waits at most 10 s more for that).
  func waitBounded(seconds: Double) async -> Int32 {
    let deadline = ContinuousClock.now + .milliseconds(Int64(seconds * 1000))
    while isRunning && ContinuousClock.now < deadline {
      try? await Task.sleep(for: .milliseconds(10))
    }
    if isRunning {
      kill(processIdentifier, SIGKILL)
      let killed = ContinuousClock.now + .seconds(10)
      while isRunning && ContinuousClock.now < killed {
        try? await Task.sleep(for: .milliseconds(10))
      }
    }
    return terminationStatus
  }
}

extension QueueFixture {
  /// Starts `offline run` in another process, its standard error appended to ``runLog``.
  func startRun() async throws -> Process {
    if !FileManager.default.fileExists(atPath: runLog.path) {
      try Data().write(to: runLog)
    }
    let log = try FileHandle(forWritingTo: runLog)
    defer { try? log.close() }
    try log.seekToEnd()
    let process = Process()
    process.executableURL = URL(fileURLWithPath: OfflineBinary.path)
    process.arguments = ["--store", store.path, "run"]
    process.standardOutput = FileHandle.nullDevice
    process.standardError = log
    try process.run()
    return process
  }

  /// Adds `large.bin`, starts `offline run` in another process and waits until more than
  /// `bytes` of it are on disk: a download in progress that a test signals, kills or meets
  /// from another process. The caller ends the run (`killIfRunning()` in a `defer`); when
  /// the wait fails, the run is killed here. In-process: ``largeDownloadUnderWay(moreThan:)``.
  func runningLargeDownload(moreThan bytes: Int) async throws -> (id: String, run: Process) {
    let id = try await addOne([url("large.bin")])
    let run = try await startRun()
    do {
      _ = try await waitForPart(of: id, moreThan: bytes)
    } catch {
      run.killIfRunning()
      throw error
    }
    return (id, run)
  }
}
