import ExportChannel
import Foundation
import OfflineLocks

/// One export of an offline stream folder into one file, as `offline export` and
/// `offline get URL -o FILE.mp4` run it: in the `offline-export` executable (FFmpeg's
/// libraries load there, never in `offline`), with a progress line on a terminal's standard
/// error, the result on standard error (or as JSON on standard output), and the exit code.
struct ExportJob: Sendable {
  /// The offline folder (or its `index.m3u8` or `index.mpd`).
  let source: URL
  /// The file to write.
  let destination: URL
  /// The container; nil takes it from the destination's extension.
  let format: ExportRequest.Format?
  /// Whether a file at the destination may be replaced (`--force`).
  let overwrite: Bool
  /// `--quiet`: nothing but errors.
  let quiet: Bool
  /// `--json`: the result as JSON on standard output, no progress line.
  let json: Bool
  /// `--subs-sidecar`: the subtitle track also as a `.vtt` file beside the output.
  var subtitleSidecar = false
  /// A field added to the JSON object (`get` adds `"event": "exported"`), or nil.
  var jsonEvent: String? = nil

  /// How an export ended, for the caller that has more to do after it.
  enum Ending: Sendable, Equatable {
    /// In place and verified.
    case exported
    /// Cancelled (SIGINT, SIGTERM, the calling task): nothing at the destination.
    case stopped
    /// Failed, with the exit code to end with (1, or 128 plus the signal that killed the
    /// exporter); an `Error:` line was printed.
    case failed(exitCode: Int32)
  }

  /// The request `offline-export` is given: this process waits for the answer, so the
  /// exporter ends with it.
  var request: ExportRequest {
    ExportRequest(
      source: source.path, destination: destination.path, format: format,
      overwrite: overwrite, subtitleSidecar: subtitleSidecar, parent: getpid())
  }

  /// Runs the export and prints how it went. Cancelling the calling task stops it (the
  /// exporter removes its temporary file; nothing is at the destination).
  func run(console: Console, environment: [String: String]) async -> Ending {
    let line = ExportProgressLine(console: console, shown: !quiet && !json)
    let answer = Locked<ExportMessage?>(nil)
    let termination: ExporterProcess.Termination?
    do throws(ExporterError) {
      let exporter = ExporterProcess(
        path: try ExporterLocation.find(environment: environment),
        arguments: request.arguments, environment: environment)
      termination = try await exporter.run { message in
        if case .progress(let phase, let fraction) = message {
          line?.update(phase: phase, fraction: fraction)
        } else {
          answer.withLock { $0 = message }
        }
      }
    } catch {
      line?.clear()
      return failed(error.description, exitCode: ExitCode.failure, console: console)
    }
    line?.clear()
    switch answer.withLock({ $0 }) {
    case .exported(let summary):
      if json {
        console.out(ExportOutput.json(summary, event: jsonEvent))
      } else if !quiet {
        console.err(ExportOutput.text(summary))
      }
      return .exported
    case .failed(let failure):
      return failed(Self.message(failure), exitCode: ExitCode.failure, console: console)
    case .stopped:
      return stopped(console: console)
    case .progress, nil:
      // Stopped before it could answer (a SIGINT while it started), or killed.
      guard let termination, !Task.isCancelled else { return stopped(console: console) }
      let error = ExporterError.endedWithoutAnswer(
        path: ExporterLocation.name, status: termination.status, signal: termination.signal)
      let code = termination.status == 0 ? ExitCode.failure : termination.status
      return failed(
        error.description + " Nothing was written to \(destination.path).", exitCode: code,
        console: console)
    }
  }

  private func stopped(console: Console) -> Ending {
    if json { console.out(JSONLine.stopped) }
    if !quiet { console.err("Stopped; nothing was written to \(destination.path).") }
    return .stopped
  }

  private func failed(_ message: String, exitCode: Int32, console: Console) -> Ending {
    if json { console.out(JSONLine.object(["event": "error", "message": message])) }
    console.err("Error: " + TerminalText.message(message))
    return .failed(exitCode: exitCode)
  }

  /// The exporter's sentence, with the option that changes it where there is one.
  static func message(_ failure: ExportFailure) -> String {
    switch (failure.reason, failure.path) {
    case (.destinationExists, let path?): alreadyExists(path)
    case (.unknownFormat, let path?):
      "Cannot tell the format of \(path) from its extension: use .mp4 or .mkv, or --format."
    default: failure.message
    }
  }

  /// The refusal of an output that exists without `--force`.
  static func alreadyExists(_ path: String) -> String {
    "\(path) already exists; add --force to replace it."
  }
}

extension ExportJob.Ending {
  /// The exit code of a command that ends with this export: 0, 130 (the signal trap says
  /// 143 for SIGTERM), or the failure's.
  var exitCode: Int32 {
    switch self {
    case .exported: ExitCode.success
    case .stopped: ExitCode.interrupted
    case .failed(let code): code
    }
  }
}
