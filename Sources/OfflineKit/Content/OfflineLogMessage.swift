import Foundation

/// Something the library could not do and went on without, for the application's log: the
/// library never prints. Handed to ``OfflineManager/Configuration/log`` on the manager's
/// actor, as it happens; the closure must not block.
///
/// ```swift
/// var configuration = OfflineManager.Configuration()
/// configuration.log = { message in logger.warning("\(message)") }
/// ```
public struct OfflineLogMessage: Sendable, CustomStringConvertible {
  /// The content concerned, when there is one.
  public var contentID: String?
  /// What was skipped, and the failure that made it skip it.
  public var message: String

  /// Creates a message.
  public init(contentID: String?, message: String) {
    self.contentID = contentID
    self.message = message
  }

  /// The message, after the content's id when there is one.
  public var description: String {
    contentID.map { "content \($0): \(message)" } ?? message
  }
}
