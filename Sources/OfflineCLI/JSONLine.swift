import Foundation
import OfflineKit

/// One JSON object per line for `--json`, with an `event` field naming what happened.
enum JSONLine {
  static func encode(_ event: Transfer.Event) -> String {
    switch event {
    case .requesting(let offset):
      return object(["event": "requesting", "offset": offset])
    case .restarted(let reason):
      return object(["event": "restarted", "reason": reason.rawValue])
    case .retrying(let attempt, let delay, let error):
      let (seconds, atto) = delay.components
      return object([
        "event": "retrying", "attempt": attempt,
        "delaySeconds": milliseconds(Double(seconds) + Double(atto) / 1e18),
        "message": error.description,
      ])
    case .progress(let progress):
      var fields: [String: Any] = [
        "event": "progress", "bytes": progress.bytes,
        "bytesPerSecond": progress.bytesPerSecond.rounded(),
      ]
      if let total = progress.total { fields["total"] = total }
      if let left = progress.secondsRemaining, left.isFinite {
        fields["secondsRemaining"] = milliseconds(left)
      }
      return object(fields)
    case .verifying:
      return object(["event": "verifying"])
    case .sourceDropped(let url, let reason):
      return object(["event": "sourceDropped", "url": url.redactedForDisplay, "reason": reason])
    case .refetchingPieces(let pieces):
      return object(["event": "refetchingPieces", "pieces": pieces])
    case .peerInsteadOfOrigin(let url, let reason):
      return object([
        "event": "peerInsteadOfOrigin", "url": url.redactedForDisplay, "reason": reason,
        "checkedAgainst": "peer",
      ])
    }
  }

  static func encode(_ outcome: Transfer.Outcome) -> String {
    var fields: [String: Any] = [
      "event": "finished", "path": outcome.destination, "bytes": outcome.length,
      "alreadyComplete": outcome.wasAlreadyComplete, "bytesReceived": outcome.bytesReceived,
      "check": outcome.check.rawValue,
    ]
    if let sha = outcome.sha256 { fields["sha256"] = sha }
    if !outcome.sources.isEmpty { fields["sources"] = sources(outcome.sources) }
    return object(fields)
  }

  /// The `sources` field of a file's or a stream's `finished` event.
  static func sources(_ reports: [Transfer.SourceReport]) -> [[String: Any]] {
    reports.map { source -> [String: Any] in
      var entry: [String: Any] = [
        "url": source.url.redactedForDisplay, "primary": source.isPrimary, "bytes": source.bytes,
      ]
      if source.badPieces > 0 { entry["badPieces"] = source.badPieces }
      if let dropped = source.dropped { entry["dropped"] = dropped }
      if let pathway = source.pathway { entry["pathway"] = pathway }
      return entry
    }
  }

  static func encode(_ error: Transfer.Error) -> String {
    object(["event": "error", "message": error.description])
  }

  /// A stream's progress, in the fields `get --json` has always given.
  static func encodeStream(_ progress: OfflineProgress) -> String {
    object([
      "event": "progress", "bytes": progress.bytes, "total": progress.total ?? 0,
      "totalIsEstimate": progress.totalIsEstimate, "segmentsDone": progress.segmentsDone ?? 0,
      "segmentsPlanned": progress.segmentsTotal ?? 0,
      "bytesPerSecond": progress.bytesPerSecond.rounded(),
    ])
  }

  static func encodeStream(index: URL, alreadyComplete: Bool, outcome: StreamOutcome?)
    -> String
  {
    var fields: [String: Any] = [
      "event": "finished", "path": index.path, "alreadyComplete": alreadyComplete,
    ]
    if let outcome {
      fields["bytes"] = outcome.bytes
      fields["segments"] = outcome.segments
      fields["duration"] = milliseconds(outcome.duration)
      // How the pieces came: the protocol (absent when none was fetched) and the most at once.
      if let version = outcome.httpVersion { fields["protocol"] = version }
      fields["mostInFlight"] = outcome.mostPiecesInFlight
      if !outcome.sources.isEmpty { fields["sources"] = sources(outcome.sources) }
    }
    return object(fields)
  }

  static let stopped = #"{"event":"stopped"}"#

  /// Seconds rounded to the millisecond, so sums print as `433.48`, not `433.4800000000001`.
  static func milliseconds(_ seconds: Double) -> Double {
    (seconds * 1000).rounded() / 1000
  }

  /// `fields` as one JSON object with sorted keys, on one line.
  static func object(_ fields: [String: Any]) -> String {
    guard
      let data = try? JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys]),
      let text = String(data: data, encoding: .utf8)
    else { return "{\"event\":\"error\",\"message\":\"unencodable event\"}" }
    return text
  }
}
