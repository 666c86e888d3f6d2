import Foundation
import OfflineExport

/// One export of an offline stream folder into one file, as `offline export` and
/// `offline get URL -o FILE.mp4` run it: a progress line on a terminal's standard error, the
/// result on standard error (or as JSON on standard output), and the exit code.
struct ExportJob: Sendable {
  /// The offline folder (or its `index.m3u8` or `index.mpd`).
  let source: URL
  /// The file to write.
  let destination: URL
  /// The container; nil takes it from the destination's extension.
  let format: ExportFormat?
  /// Whether a file at the destination may be replaced (`--force`).
  let overwrite: Bool
  /// `--quiet`: nothing but errors.
  let quiet: Bool
  /// `--json`: the result as JSON on standard output, no progress line.
  let json: Bool
  /// A field added to the JSON object (`get` adds `"event": "exported"`), or nil.
  var jsonEvent: String? = nil

  /// How an export ended, for the caller that has more to do after it.
  enum Ending: Sendable, Equatable {
    /// In place and verified.
    case exported
    /// Cancelled (SIGINT, SIGTERM, the calling task): nothing at the destination.
    case stopped
    /// Failed; an `Error:` line was printed.
    case failed
  }

  /// Runs the export and prints how it went. Cancelling the calling task stops it (the
  /// library removes its temporary file; nothing is at the destination).
  func run(console: Console) async -> Ending {
    let line = ExportProgressLine(console: console, shown: !quiet && !json)
    let export = StreamExport(
      source: source, destination: destination, format: format, overwrite: overwrite)
    do throws(ExportError) {
      var progress: (@Sendable (ExportProgress) -> Void)?
      if let line { progress = { line.update($0) } }
      let report = try await export.run(progress: progress)
      line?.clear()
      if json {
        console.out(ExportOutput.json(report, event: jsonEvent))
      } else if !quiet {
        console.err(ExportOutput.text(report))
      }
      return .exported
    } catch {
      line?.clear()
      if error == .cancelled {
        if json { console.out(JSONLine.stopped) }
        if !quiet { console.err("Stopped; nothing was written to \(destination.path).") }
        return .stopped
      }
      if json { console.out(JSONLine.object(["event": "error", "message": Self.message(error)])) }
      console.err("Error: " + TerminalText.message(Self.message(error)))
      return .failed
    }
  }

  /// The library's sentence, with the option that changes it where there is one.
  static func message(_ error: ExportError) -> String {
    switch error {
    case .destinationExists(let path): "\(path) already exists; add --force to replace it."
    case .unknownFormat(let path):
      "Cannot tell the format of \(path) from its extension: use .mp4 or .mkv, or --format."
    default: error.description
    }
  }
}

extension ExportJob.Ending {
  /// The exit code of a command that ends with this export: 0, 130 (the signal trap says
  /// 143 for SIGTERM) or 1.
  var exitCode: Int32 {
    switch self {
    case .exported: ExitCode.success
    case .stopped: ExitCode.interrupted
    case .failed: ExitCode.failure
    }
  }
}
