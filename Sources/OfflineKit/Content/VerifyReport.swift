import Foundation

/// What a full check of one downloaded content found (``OfflineContent/verify(progress:)``).
public struct VerifyReport: Sendable, Equatable {
  /// The content checked.
  public var contentID: String
  /// What is wrong; nil when every file is whole.
  public var damage: ContentDamage?
  /// The files checked (every file the download recorded).
  public var filesChecked: Int
  /// The bytes read and hashed.
  public var bytesRead: Int64

  /// Creates a report.
  public init(contentID: String, damage: ContentDamage?, filesChecked: Int, bytesRead: Int64) {
    self.contentID = contentID
    self.damage = damage
    self.filesChecked = filesChecked
    self.bytesRead = bytesRead
  }

  /// Whether every file is whole.
  public var isWhole: Bool { damage == nil }
}
