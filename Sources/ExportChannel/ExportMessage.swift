import Foundation

/// One line `offline-export` writes on its standard output, as JSON: how far it has got, then
/// how it ended. `offline` reads them and prints what a user sees.
///
/// An exporter writes any number of ``progress(phase:fraction:)`` lines (one each time the
/// share done grows by a hundredth), then exactly one of ``exported(_:)``, ``failed(_:)`` or
/// ``stopped``, and exits 0, 1 or 130 (143 after SIGTERM).
///
/// ```swift
/// let line = ExportMessage.progress(phase: .writing, fraction: 0.5).line
/// // {"event":"progress","fraction":0.5,"phase":"writing"}
/// ExportMessage(line: line)  // the same message
/// ```
public enum ExportMessage: Sendable, Equatable {
  /// What an export is doing.
  public enum Phase: String, Sendable, Equatable, Codable {
    /// Copying packets into the new file.
    case writing
    /// Reading the new file back and comparing it with the offline copy.
    case verifying
  }

  /// The share of `phase` done, from 0 to 1.
  case progress(phase: Phase, fraction: Double)
  /// The file is in place and verified.
  case exported(ExportSummary)
  /// The export failed; nothing is at the destination.
  case failed(ExportFailure)
  /// A signal stopped the export; nothing is at the destination.
  case stopped

  /// The message as one line of JSON, without the newline.
  public var line: String {
    let envelope: Envelope =
      switch self {
      case .progress(let phase, let fraction):
        Envelope(event: "progress", phase: phase, fraction: fraction)
      case .exported(let summary): Envelope(event: "exported", summary: summary)
      case .failed(let failure): Envelope(event: "failed", failure: failure)
      case .stopped: Envelope(event: "stopped")
      }
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    guard let data = try? encoder.encode(envelope) else { return #"{"event":"unencodable"}"# }
    return String(decoding: data, as: UTF8.self)
  }

  /// Reads one line; nil when it is not a message (an exporter of another version, say).
  public init?(line: some StringProtocol) {
    guard
      let envelope = try? JSONDecoder().decode(Envelope.self, from: Data(line.utf8))
    else { return nil }
    switch envelope.event {
    case "progress":
      guard let phase = envelope.phase, let fraction = envelope.fraction else { return nil }
      self = .progress(phase: phase, fraction: fraction)
    case "exported":
      guard let summary = envelope.summary else { return nil }
      self = .exported(summary)
    case "failed":
      guard let failure = envelope.failure else { return nil }
      self = .failed(failure)
    case "stopped": self = .stopped
    default: return nil
    }
  }

  /// The line's shape: an `event` and the fields of that event.
  private struct Envelope: Codable {
    var event: String
    var phase: Phase?
    var fraction: Double?
    var summary: ExportSummary?
    var failure: ExportFailure?
  }
}
