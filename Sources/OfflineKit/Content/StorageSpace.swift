import Foundation

/// Free and total disk space, as the platform reports them to an unprivileged writer
/// (`statvfs` on Linux, `StorageSpace+Linux.swift`; `URLResourceValues` on Apple platforms,
/// `StorageSpace+Darwin.swift`).
///
/// ```swift
/// if let space = StorageSpace(at: folder.path), space.available < needed { … }
/// ```
public struct StorageSpace: Sendable, Equatable {
  /// Bytes a writer can still use.
  public var available: Int64
  /// Bytes a writer could use on the file system if it held nothing: its size less the
  /// blocks reserved for root.
  public var capacity: Int64

  /// The space of the file system holding `path`, nil when it cannot be read.
  public init?(at path: String) {
    guard let space = Self.read(at: path) else { return nil }
    self = space
  }

  /// Creates a value from known figures.
  public init(available: Int64, capacity: Int64) {
    self.available = available
    self.capacity = capacity
  }

  /// Bytes available at `path`, nil when it cannot be read.
  static func available(at path: String) -> Int64? {
    StorageSpace(at: path)?.available
  }
}
