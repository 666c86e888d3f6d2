import Foundation
import OfflineHTTP
import OfflineStore

/// What the queue keeps of Metalinks met by files' first answers (``OfflineManager``'s
/// `metalinkReplans`).
struct MetalinkReplans: Sendable {
  /// The plans read by downloads that stopped at a Metalink, by content id, until their end
  /// is handled.
  var plans: [String: MetalinkPlan] = [:]
  /// The contents re-planned from a Metalink in this process.
  var replanned: Set<String> = []
}

extension OfflineManager {
  /// The Metalink plan a download of `id` that ended with `outcome` read (a plain URL whose
  /// first answer is a Metalink or names one with `Link: rel=describedby`), taken; nil for
  /// any other end.
  func metalinkPlan(_ id: String, outcome: Result<Transfer.Outcome, Transfer.Error>)
    -> MetalinkPlan?
  {
    guard case .failure(let error) = outcome, case .describedByMetalink = error.kind else {
      return nil
    }
    return metalinkReplans.withLock { $0.plans.removeValue(forKey: id) }
  }

  /// Makes content `id` the download `plan` describes, as `add URL.meta4` would have: its
  /// best URL the content's, the others kept as its mirrors (after those given), its name
  /// (made safe) the file's, in a folder of its own, its SHA-256 the one the file must have
  /// unless one was given, its piece checks and size kept. The content stays queued; its
  /// next run starts from the new URL with nothing of the old one.
  func replan(_ id: String, with plan: MetalinkPlan) {
    metalinkReplans.withLock { _ = $0.replanned.insert(id) }
    _ = logging("re-planning it from the Metalink its URL answered", id: id) {
      var source = OfflineSource(url: plan.primary)
      source.fileName = plan.name
      source.pieceChecks = plan.pieces
      try keepPieceChecks(of: [source], ids: [id])
      let kept = try secrets.loadKept(id: id)
      try secrets.save(
        kept?.options ?? RequestOptions(), urlExpiresAt: kept?.urlExpiresAt,
        mirrors: (kept?.mirrors ?? []) + plan.mirrors, peers: kept?.peers ?? [], id: id)
      let name = ContentManifest.contentFileName(ContentIntake.fileName(of: source))
      try index.contents.update(id: id) { record in
        record.url = plan.primary.absoluteString
        record.fileName = name
        record.flatFile = false
        record.expectedSHA256 = record.expectedSHA256 ?? plan.sha256
        record.hasPieceChecks = plan.pieces != nil
        if let size = plan.size {
          record.total = size
          record.totalIsEstimate = false
        }
      }
    }
  }
}
