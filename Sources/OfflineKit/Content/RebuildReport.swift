import Foundation

/// What a rebuild of the index from the contents' manifests did (see
/// ``OfflineManager/rebuildFromManifests()``).
public struct RebuildReport: Sendable, Equatable {
  /// A content put back in the index.
  public struct Restored: Sendable, Equatable {
    /// Its id.
    public var id: String
    /// The state it came back in.
    public var state: OfflineState
    /// Why it came back in another state than its manifest said (a downloaded file missing
    /// or of the wrong size, say), nil when it came back as it was.
    public var note: String?
  }

  /// Something that was not used, and why.
  public struct Skipped: Sendable, Equatable {
    /// The manifest, ledger chunk or folder concerned.
    public var path: String
    /// Why it was skipped, as a sentence for people.
    public var reason: String
  }

  /// The contents put back, in queue order.
  public var restored: [Restored] = []
  /// Manifests and folders left unused (malformed, hostile, or without a manifest).
  public var skipped: [Skipped] = []

  /// Creates an empty report.
  public init() {}
}
