/// One message from an export, for the application's log: libav's warnings and errors, and
/// what the export decided (a discontinuity stitched, a track skipped).
public struct ExportLogMessage: Sendable, Equatable {
  /// How severe the message is.
  public enum Level: Sendable, Equatable, Comparable {
    /// Something an application may want to know; the export goes on.
    case notice
    /// Something looks wrong; the export goes on.
    case warning
    /// Something failed.
    case error
  }

  /// How severe the message is.
  public var level: Level
  /// The message, one line without a trailing newline.
  public var text: String

  /// Creates a message.
  public init(level: Level, text: String) {
    self.level = level
    self.text = text
  }
}
