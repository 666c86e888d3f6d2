import Foundation

/// A program the tests run (ffmpeg, ffprobe) and what it printed.
enum Tool {
  struct Failure: Error, CustomStringConvertible {
    var command: String
    var status: Int32
    var errorOutput: String
    var description: String { "\(command) exited with \(status): \(errorOutput)" }
  }

  /// Runs `program` (looked up on PATH) with `arguments`; returns its standard output, or
  /// throws with its standard error when it exits with a failure.
  @discardableResult
  static func run(_ program: String, _ arguments: [String], in folder: URL? = nil) throws -> Data {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = [program] + arguments
    if let folder { process.currentDirectoryURL = folder }
    let output = Pipe()
    let errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    // Read both pipes while the program runs, so neither fills up and blocks it.
    let errorData = Locked(Data())
    let reader = Thread { errorData.set(errors.fileHandleForReading.readDataToEndOfFile()) }
    reader.start()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    while !errorData.isSet { usleep(1000) }
    guard process.terminationStatus == 0 else {
      throw Failure(
        command: ([program] + arguments).joined(separator: " "),
        status: process.terminationStatus,
        errorOutput: String(decoding: errorData.value.suffix(2000), as: UTF8.self))
    }
    return data
  }
}

/// A value set once by another thread.
final class Locked<Value: Sendable>: @unchecked Sendable {
  // Sound: every access goes through `lock`.
  private let lock = NSLock()
  private var stored: Value
  private var wasSet = false

  init(_ value: Value) { stored = value }

  var value: Value { lock.withLock { stored } }
  var isSet: Bool { lock.withLock { wasSet } }

  func set(_ value: Value) {
    lock.withLock {
      stored = value
      wasSet = true
    }
  }
}
