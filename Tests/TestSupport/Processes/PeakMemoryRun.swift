import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Runs a program while watching its peak resident memory (`VmHWM` in `/proc/<pid>/status`,
/// Linux), and kills it once it passes a ceiling or a time limit, so a test of a memory bound
/// fails with a figure instead of taking the machine down.
///
/// ```swift
/// let run = try await PeakMemoryRun.run(path, ["get", url], ceiling: 1 << 30, timeout: 60)
/// #expect(run.peakBytes < 200 << 20)
/// ```
public enum PeakMemoryRun {
  /// How a watched run ended.
  public struct Outcome: Sendable {
    /// The exit status, or `128 + signal` when a signal ended it (a kill by the watcher too).
    public var status: Int32
    /// The largest resident set seen, in bytes (`VmHWM`, read every 20 ms).
    public var peakBytes: Int
    /// Why the watcher killed it (`"memory ceiling"`, `"time limit"`), or nil when it ended
    /// on its own.
    public var killedFor: String?
    /// Seconds from start to end.
    public var seconds: Double
    /// What it wrote to standard error.
    public var stderr: String

    /// The peak in MiB, for messages.
    public var peakMiB: Int { peakBytes >> 20 }
  }

  /// Runs `executable` with `arguments`, polling its `VmHWM`; kills it past `ceiling` bytes
  /// or `timeout` seconds. Polls with `Task.sleep`: no thread is held while it watches.
  ///
  /// - Throws: The error `Process.run()` reports when the program cannot be started.
  public static func run(
    _ executable: String, _ arguments: [String], ceiling: Int, timeout: Double
  ) async throws -> Outcome {
    let scratch = try TemporaryDirectory(prefix: "offlinekit-peak")
    let errURL = scratch.file("stderr")
    let errHandle = try FileHandle.creatingEmptyFile(at: errURL)
    defer { try? errHandle.close() }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.standardInput = FileHandle.nullDevice
    process.standardOutput = FileHandle.nullDevice
    process.standardError = errHandle
    let exit = ProcessExit(process)
    let start = Date()
    try process.run()
    let pid = process.processIdentifier
    var peak = 0
    var killedFor: String?
    // Bounded by `timeout`: past it the child is killed and the loop ends.
    while !exit.hasExited {
      peak = max(peak, highWaterMark(of: pid) ?? 0)
      if peak > ceiling {
        killedFor = "memory ceiling"
      } else if Date().timeIntervalSince(start) > timeout || Task.isCancelled {
        killedFor = "time limit"
      }
      if killedFor != nil {
        kill(pid, SIGKILL)
        break
      }
      try? await Task.sleep(for: .milliseconds(20))
    }
    _ = await exit.wait(timeout: 10)
    let status =
      process.terminationReason == .uncaughtSignal
      ? 128 + process.terminationStatus : process.terminationStatus
    return Outcome(
      status: status, peakBytes: peak, killedFor: killedFor,
      seconds: Date().timeIntervalSince(start),
      stderr: String(decoding: (try? Data(contentsOf: errURL)) ?? Data(), as: UTF8.self))
  }

  /// `VmHWM` of process `pid` in bytes, or nil once it is gone.
  static func highWaterMark(of pid: Int32) -> Int? {
    guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else {
      return nil
    }
    for line in text.split(separator: "\n") where line.hasPrefix("VmHWM:") {
      let kib = line.split(separator: " ").compactMap { Int($0) }.first
      return kib.map { $0 * 1024 }
    }
    return nil
  }
}
