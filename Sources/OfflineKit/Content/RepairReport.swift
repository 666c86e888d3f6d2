import Foundation

/// What a repair did (``OfflineContent/repair(redownload:)``).
public struct RepairReport: Sendable, Equatable {
  /// How the repair ended.
  public enum Outcome: Sendable, Equatable {
    /// Nothing was wrong; nothing was fetched.
    case alreadyWhole
    /// Every damaged chunk or piece was fetched again and the content is whole.
    case repaired
    /// The content was queued to be downloaded again from scratch (`redownload`).
    case redownloadQueued
  }

  /// The content repaired.
  public var contentID: String
  /// How it ended.
  public var outcome: Outcome
  /// What was wrong before (nil when nothing was).
  public var damage: ContentDamage?
  /// The chunks of files fetched again.
  public var chunksFetched: Int
  /// The pieces of a stream fetched again.
  public var piecesFetched: Int
  /// Body bytes received.
  public var bytesFetched: Int64

  /// Creates a report.
  public init(
    contentID: String, outcome: Outcome, damage: ContentDamage?, chunksFetched: Int = 0,
    piecesFetched: Int = 0, bytesFetched: Int64 = 0
  ) {
    self.contentID = contentID
    self.outcome = outcome
    self.damage = damage
    self.chunksFetched = chunksFetched
    self.piecesFetched = piecesFetched
    self.bytesFetched = bytesFetched
  }
}
