import ExportChannel
import Foundation
import OfflineExport

/// One export as a request describes it: runs `StreamExport`, writing a progress message
/// each hundredth of each phase and the ending's message.
struct ExporterRun {
  /// How the export ended.
  enum Ending: Equatable {
    case exported
    case failed
    case stopped

    /// 0 or 1; a stop's code depends on the signal (`StopSignals.exitCode`).
    var exitCode: Int32 { self == .exported ? 0 : 1 }
  }

  let request: ExportRequest

  /// Runs the export and writes its messages. Cancelling the calling task stops it between
  /// two packets; the library removes its temporary file.
  func run() async -> Ending {
    let export = StreamExport(
      source: URL(fileURLWithPath: request.source),
      destination: URL(fileURLWithPath: request.destination),
      format: request.format.flatMap { ExportFormat(rawValue: $0.rawValue) },
      overwrite: request.overwrite, writesSubtitleSidecar: request.subtitleSidecar)
    do throws(ExportError) {
      let report = try await export.run { progress in
        let phase: ExportMessage.Phase = progress.phase == .writing ? .writing : .verifying
        MessageOutput.write(.progress(phase: phase, fraction: progress.fraction))
      }
      MessageOutput.write(.exported(Self.summary(report)))
      return .exported
    } catch {
      if error == .cancelled {
        MessageOutput.write(.stopped)
        return .stopped
      }
      MessageOutput.write(.failed(Self.failure(error)))
      return .failed
    }
  }

  /// The report as the channel carries it.
  static func summary(_ report: ExportReport) -> ExportSummary {
    ExportSummary(
      output: report.destination.path, format: report.format.rawValue, bytes: report.bytes,
      duration: report.duration, expectedDuration: report.expectedDuration,
      discontinuities: report.discontinuities,
      tracks: report.tracks.map { track in
        ExportSummary.Track(
          kind: track.kind.rawValue, codec: track.codec, language: track.language,
          isDefault: track.isDefault, packets: track.packets, bytes: track.bytes)
      },
      packetsCompared: report.verification.packetsCompared,
      subtitleSidecar: report.subtitleSidecar?.path)
  }

  /// The error as the channel carries it: the reasons `offline` words with an option's name
  /// apart, the library's sentence for every one.
  static func failure(_ error: ExportError) -> ExportFailure {
    switch error {
    case .destinationExists(let path):
      ExportFailure(reason: .destinationExists, path: path, message: error.description)
    case .unknownFormat(let path):
      ExportFailure(reason: .unknownFormat, path: path, message: error.description)
    case .destinationFolderMissing(let path):
      ExportFailure(reason: .destinationFolderMissing, path: path, message: error.description)
    default: ExportFailure(reason: .other, message: error.description)
    }
  }
}
