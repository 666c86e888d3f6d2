import Foundation
import OfflineKit

/// What `POST /api/contents/<id>/verify` and `/repair` answer: the report of
/// ``OfflineContent/verify(progress:)`` or ``OfflineContent/repair(redownload:)``, with each
/// damaged file named.
struct IntegrityJSON: Encodable, Sendable {
  /// One file that is not what the download recorded.
  struct Problem: Encodable, Sendable {
    var path: String
    /// `file`, `segment`, `init section`, `key` or `offline playlist`.
    var kind: String
    /// `missing`, `short`, `long`, `changed` or `wrongHash`.
    var fault: String
    /// The offsets of the 4 MiB chunks whose bytes differ (a file's `wrongHash`).
    var chunkOffsets: [Int64]?
    /// The segments of a pack whose bytes differ, by playlist position and URL.
    var segments: [ContentDamage.Segment]?
    /// The problem in words.
    var description: String

    init(_ problem: ContentDamage.Problem) {
      path = problem.path
      segments = problem.segments.isEmpty ? nil : problem.segments
      kind = problem.kind.phrase
      description = problem.description
      switch problem.fault {
      case .missing: fault = "missing"
      case .short: fault = "short"
      case .long: fault = "long"
      case .changed: fault = "changed"
      case .wrongHash(let offsets):
        fault = "wrongHash"
        chunkOffsets = offsets.isEmpty ? nil : offsets
      }
    }
  }

  var id: String
  /// Whether every file is whole (after a repair: whether it was before).
  var whole: Bool
  var problems: [Problem]
  /// verify: files checked and bytes read.
  var filesChecked: Int?
  var bytesRead: Int64?
  /// repair: `alreadyWhole`, `repaired` or `redownloadQueued`, and what it fetched.
  var outcome: String?
  var chunksFetched: Int?
  var piecesFetched: Int?
  var bytesFetched: Int64?

  init(_ report: VerifyReport) {
    id = report.contentID
    whole = report.isWhole
    problems = report.damage?.problems.map(Problem.init) ?? []
    filesChecked = report.filesChecked
    bytesRead = report.bytesRead
  }

  init(_ report: RepairReport) {
    id = report.contentID
    whole = report.damage == nil
    problems = report.damage?.problems.map(Problem.init) ?? []
    switch report.outcome {
    case .alreadyWhole: outcome = "alreadyWhole"
    case .repaired: outcome = "repaired"
    case .redownloadQueued: outcome = "redownloadQueued"
    }
    chunksFetched = report.chunksFetched
    piecesFetched = report.piecesFetched
    bytesFetched = report.bytesFetched
  }
}
