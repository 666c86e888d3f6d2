import Foundation

/// Whether a queued content may start as far as disk space goes: a decision with no I/O.
/// The manager reads the file system's space (and the store's usage, when it has a quota)
/// and hands them in with the time; ``StorageWaits`` keeps when each waiting content is
/// looked at again.
enum SpaceDecision: Sendable, Equatable {
  /// It fits: start it.
  case fits
  /// Not enough space now; it waits (reason `storage`) and is looked at again later.
  case wait
  /// It waits for space and is not due to be looked at yet.
  case notYetDue
  /// It cannot fit even on the empty file system: `needed` more bytes than `capacity`.
  case never(needed: Int64, capacity: Int64)

  /// What the store holds against its quota.
  struct Quota: Sendable, Equatable {
    /// The most bytes the store may hold.
    var limit: Int64
    /// The bytes it holds now.
    var used: Int64
  }

  /// What a content about to start needs of its space.
  struct Need: Sendable, Equatable {
    /// The content's id.
    var id: String
    /// Whether it waits for space now (wait reason `storage`).
    var waiting: Bool
    /// Its size, when known (0 counts for unknown).
    var total: Int64?
    /// Its bytes on disk.
    var bytes: Int64
  }

  /// The decision for `need`, with `space` the file system's (nil when it cannot be read),
  /// `margin` the bytes to keep free, `quota` the store's quota and usage (nil for none);
  /// notes in `waits` what waiting contents need for later.
  static func decide(
    _ need: Need, space: StorageSpace?, margin: Int64, quota: Quota?,
    waits: inout StorageWaits, at now: ContinuousClock.Instant
  ) -> SpaceDecision {
    if need.waiting, waits.wasLaunched(need.id) {
      // Its download ran out of space since it started: wait until more is free.
      waits.ranOut(need.id, available: space?.available ?? 0, at: now)
      return .notYetDue
    }
    if need.waiting, let space, waits.stillFull(need.id, available: space.available) {
      waits.postpone(need.id, at: now)
      return .notYetDue
    }
    let shortage = space?.shortage(length: need.total ?? 0, written: need.bytes, margin: margin)
    if let space, case .capacity(let needed) = shortage {
      waits.end(need.id)
      return .never(needed: needed, capacity: space.capacity)
    }
    let remaining = max(0, (need.total ?? 0) - need.bytes)
    let overQuota = quota.map { $0.used + remaining > $0.limit } ?? false
    guard overQuota || shortage != nil else { return .fits }
    waits.postpone(need.id, at: now)
    return .wait
  }
}
