// The `offline-export` executable: the export `offline export` and `offline get URL -o
// FILE.mp4` run, in a process of its own, so that only this process loads FFmpeg's libraries.
// It takes `ExportRequest`'s command line and writes `ExportMessage` lines on standard output;
// `offline` reads them and prints what a user sees.
import CSystem
import ExportChannel
import Foundation
import OfflineSignals

// SIGINT and SIGTERM cancel the export (its temporary file is removed), from the start on.
let signals = ProcessSignals.shared
// A parent gone: its end of the pipe is closed, and nothing should die of writing to it.
signal(SIGPIPE, SIG_IGN)

let request: ExportRequest
do {
  request = try ExportRequest(arguments: Array(CommandLine.arguments.dropFirst()))
} catch {
  MessageOutput.write(.failed(ExportFailure(reason: .usage, message: error.description)))
  MessageOutput.error(
    "Error: \(error.description)\nUsage: offline-export <folder> -o <file> [--format mp4|mkv]"
      + " [--force] [--subs-sidecar] [--parent <pid>]")
  exit(64)
}
if let parent = request.parent, !ParentWatch.endsWithParent(parent) {
  MessageOutput.error("Error: the process that asked for this export (\(parent)) has ended.")
  exit(1)
}

let export = Task { await ExporterRun(request: request).run() }
signals.listen { _ in export.cancel() }
let ending = await export.value
exit(ending == .stopped ? (signals.first == SIGTERM ? 143 : 130) : ending.exitCode)
