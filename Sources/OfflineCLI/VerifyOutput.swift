import Foundation
import OfflineKit

/// What `offline verify` and `offline repair` print: a line per content and one per problem,
/// or `--json`.
enum VerifyOutput {
  /// What was found for one content.
  struct Result: Sendable {
    let id: String
    var report: VerifyReport?
    var remote: RemoteStatus?
    var repair: RepairReport?

    init(id: String, report: VerifyReport) {
      self.id = id
      self.report = report
    }

    init(id: String, remote: RemoteStatus) {
      self.id = id
      self.remote = remote
    }

    init(id: String, repair: RepairReport) {
      self.id = id
      self.repair = repair
    }

    /// Whether the content is whole (or repaired, or up to date on the origin).
    var isGood: Bool {
      if let remote { return remote == .upToDate }
      if let repair { return repair.outcome != .redownloadQueued || report == nil }
      return report?.isWhole ?? false
    }

    /// The lines for people.
    var text: String {
      if let remote {
        switch remote {
        case .upToDate: return "\(id): up to date"
        case .changed(let url): return "\(id): changed on the origin (\(TerminalText.escaped(url)))"
        }
      }
      var lines: [String] = []
      if let report {
        if let damage = report.damage {
          lines.append("\(id): damaged")
          lines += damage.problems.map { "  " + TerminalText.escaped($0.description) }
        } else {
          lines.append(
            "\(id): whole (\(report.filesChecked) file\(report.filesChecked == 1 ? "" : "s"),"
              + " \(ByteCount.format(report.bytesRead)) read)")
        }
      }
      if let repair { lines.append(Self.text(of: repair, id: id)) }
      return lines.joined(separator: "\n")
    }

    static func text(of repair: RepairReport, id: String) -> String {
      switch repair.outcome {
      case .alreadyWhole: return "\(id): whole, nothing to repair"
      case .redownloadQueued: return "\(id): queued to download again"
      case .repaired:
        var fetched: [String] = []
        if repair.chunksFetched > 0 {
          fetched.append("\(repair.chunksFetched) chunk\(repair.chunksFetched == 1 ? "" : "s")")
        }
        if repair.piecesFetched > 0 {
          fetched.append("\(repair.piecesFetched) piece\(repair.piecesFetched == 1 ? "" : "s")")
        }
        return "\(id): repaired"
          + (fetched.isEmpty ? "" : " (fetched " + fetched.joined(separator: " and ") + ")")
      }
    }
  }

  private struct ProblemJSON: Encodable {
    let path: String
    let kind: String
    let fault: String
    let expectedSize: Int64?
    let actualSize: Int64?
    let chunkOffsets: [Int64]?
    let segments: [ContentDamage.Segment]?

    init(_ problem: ContentDamage.Problem) {
      path = problem.path
      kind = problem.kind.rawValue
      segments = problem.segments.isEmpty ? nil : problem.segments
      var expected: Int64?
      var actual: Int64?
      var offsets: [Int64]?
      switch problem.fault {
      case .missing: fault = "missing"
      case .changed: fault = "changed"
      case .short(let e, let a):
        fault = "short"
        (expected, actual) = (e, a)
      case .long(let e, let a):
        fault = "long"
        (expected, actual) = (e, a)
      case .wrongHash(let list):
        fault = "wrongHash"
        offsets = list.isEmpty ? nil : list
      }
      expectedSize = expected
      actualSize = actual
      chunkOffsets = offsets
    }
  }

  private struct ResultJSON: Encodable {
    let id: String
    let whole: Bool?
    let files: Int?
    let bytesRead: Int64?
    let problems: [ProblemJSON]?
    let remote: String?
    let repaired: String?

    init(_ result: Result) {
      id = result.id
      whole = result.report?.isWhole
      files = result.report?.filesChecked
      bytesRead = result.report?.bytesRead
      problems = result.report.map { ($0.damage?.problems ?? []).map(ProblemJSON.init) }
      switch result.remote {
      case .upToDate?: remote = "upToDate"
      case .changed?: remote = "changed"
      case nil: remote = nil
      }
      switch result.repair?.outcome {
      case .alreadyWhole?: repaired = "alreadyWhole"
      case .repaired?: repaired = "repaired"
      case .redownloadQueued?: repaired = "redownloadQueued"
      case nil: repaired = nil
      }
    }
  }

  /// The results as one JSON array.
  static func json(_ results: [Result]) -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    guard let data = try? encoder.encode(results.map(ResultJSON.init)) else { return "[]" }
    return String(decoding: data, as: UTF8.self)
  }
}
