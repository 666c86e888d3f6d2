import ExportChannel
import Foundation
import OfflineKit
import OfflineStore

extension GetCommand {
  /// The file a stream is exported to: `-o` when it names a file (not a folder, not ending in
  /// `/`) whose extension is one `offline export` writes (`.mp4`, `.m4v`, `.mkv`); else nil,
  /// and the stream becomes a folder as before.
  /// The extension is looked at first: a plain `get -o DIR` of a stream costs no system call
  /// here (SyscallCountTests counts its stats).
  func exportDestination(currentFolder: String) -> URL? {
    guard Self.namesExport(output) else { return nil }
    let path = destination(currentFolder: currentFolder)
    var isFolder: ObjCBool = false
    if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue {
      return nil
    }
    return URL(fileURLWithPath: path)
  }

  /// Whether `-o` names a file a stream is exported to, by its name alone: not ending in `/`,
  /// with an extension `offline export` writes.
  static func namesExport(_ output: String?) -> Bool {
    guard let output else { return false }
    return !output.hasSuffix("/") && ExportRequest.Format(path: output) != nil
  }

  /// Where `--subs-sidecar` puts the subtitles of a stream exported to `file`: beside it,
  /// with the extension `vtt` (as `offline-export` names it).
  static func sidecar(of file: URL) -> URL {
    file.deletingPathExtension().appendingPathExtension("vtt")
  }

  /// The folder a stream exported to `file` is downloaded into first: hidden, beside the
  /// file, always the same for the same file, so that running the same command again after
  /// a stop resumes the download (or, when only the export failed, exports without
  /// downloading). It is removed once the export is in place and verified.
  static func workFolder(exportingTo file: URL) -> String {
    file.deletingLastPathComponent().appending(path: ".\(file.lastPathComponent).offline").path
  }

  /// Refuses, before anything is fetched, an export whose file could not be written: its
  /// folder missing, a file there (or at its subtitle sidecar's path, with `--subs-sidecar`)
  /// without `--force`, or no `offline-export` to run. Returns the exit code, or nil to go on.
  func refusal(exportingTo file: URL, environment: [String: String], reporter: GetReporter)
    -> Int32?
  {
    let folder = file.deletingLastPathComponent().path
    var isFolder: ObjCBool = false
    guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder),
      isFolder.boolValue
    else {
      reporter.failed("The folder \(folder) does not exist.")
      return ExitCode.failure
    }
    let taken = [file] + (subtitleSidecar ? [Self.sidecar(of: file)] : [])
    if !force,
      let existing = taken.first(where: { FileManager.default.fileExists(atPath: $0.path) })
    {
      reporter.failed(ExportJob.alreadyExists(existing.path))
      return ExitCode.failure
    }
    do throws(ExporterError) {
      _ = try ExporterLocation.find(environment: environment)
    } catch {
      reporter.failed(error.description)
      return ExitCode.failure
    }
    return nil
  }

  /// Downloads the stream into its work folder as `get -o DIR` does, then exports it to
  /// `file` and removes the work folder (and its journal records) once the file is in place
  /// and verified. A stopped or failed download keeps the folder to resume; a failed export
  /// keeps it too, so the same command exports it again without downloading.
  func runThenExport(
    _ download: ContentDownload, to file: URL, journal: TransferJournal, reporter: GetReporter,
    host: CommandHost
  ) async -> Int32 {
    let downloaded = await run(download, reporter: reporter, host: host)
    guard downloaded == ExitCode.success, !Task.isCancelled else { return downloaded }
    let folder = download.destination
    let job = ExportJob(
      source: URL(fileURLWithPath: folder), destination: file, format: nil, overwrite: force,
      quiet: quiet, json: json, subtitleSidecar: subtitleSidecar, jsonEvent: "exported")
    let ending = await job.run(console: host.console, environment: host.environment)
    switch ending {
    case .exported:
      try? FileManager.default.removeItem(atPath: folder)
      try? journal.remove(under: folder)
    case .failed:
      host.console.err(
        "The downloaded stream is kept in \(folder); the same command exports it again"
          + " without downloading.")
    case .stopped:
      break
    }
    return ending.exitCode
  }
}
