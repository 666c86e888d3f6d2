import Foundation

/// The process that holds the `flock(2)` lock on a file, for an error message that names who
/// is in the way. Found in `/proc/locks` on Linux (`LockHolder+Linux.swift`); Apple platforms
/// cannot tell who holds a `flock`, so there the message names no process.
package struct LockHolder: Sendable, Equatable, CustomStringConvertible {
  /// The process id.
  public var processID: Int32
  /// The start of its command line (program name and its first arguments), when readable.
  public var command: String?

  /// Creates a holder.
  public init(processID: Int32, command: String?) {
    self.processID = processID
    self.command = command
  }

  /// `pid 1234: offline get`, or `pid 1234`.
  public var description: String {
    guard let command, !command.isEmpty else { return "pid \(processID)" }
    return "pid \(processID): \(command)"
  }
}
