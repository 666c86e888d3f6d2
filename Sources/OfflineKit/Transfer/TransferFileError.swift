import Foundation

/// A failed file operation of a transfer, with the system's error number.
package struct TransferFileError: Error, Sendable, Equatable {
  /// The operation that failed.
  public enum Operation: String, Sendable {
    /// Opening or creating the part file.
    case open
    /// Writing body bytes.
    case write
    /// Reading back bytes (to verify them).
    case read
    /// Flushing to stable storage.
    case sync
    /// Moving the complete file into place.
    case rename
    /// Truncating the part file.
    case truncate
    /// Creating the destination's folder.
    case createDirectory
    /// Removing a file that must not outlive what it describes (a stream's offline
    /// playlist, while pieces it addresses are rewritten).
    case remove
  }

  /// The operation that failed.
  public var operation: Operation
  /// The `errno` value.
  public var errno: Int32
  /// The file concerned, filled in by the transfer.
  public var path: String?

  /// Creates an error.
  public init(_ operation: Operation, errno: Int32, path: String? = nil) {
    self.operation = operation
    self.errno = errno
    self.path = path
  }

  /// Whether the disk is full (ENOSPC or EDQUOT): the transfer can resume once space is freed.
  public var isOutOfSpace: Bool { errno == ENOSPC || errno == EDQUOT }

  /// The system's text for the error number.
  public var reason: String { String(cString: strerror(errno)) }
}
