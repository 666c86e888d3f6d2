import Foundation

extension StreamExport {
  /// The export from start to end, on the calling thread.
  func perform(
    cancellation: CancellationFlag, progress: @escaping @Sendable (ExportProgress) -> Void
  ) throws(ExportError) -> ExportReport {
    let offline = try ExportInput.locate(source)
    guard let format = format ?? ExportFormat(destination: destination) else {
      throw .unknownFormat(path: destination.path)
    }
    let file = try DestinationFile(destination: destination, overwrite: overwrite)
    // Refused before any work when it exists (without `overwrite`), as the file is.
    let sidecar: DestinationFile?
    do throws(ExportError) {
      sidecar =
        writesSubtitleSidecar
        ? try DestinationFile(destination: subtitleSidecarURL, overwrite: overwrite) : nil
    } catch {
      file.discard()
      throw error
    }
    do throws(ExportError) {
      let (report, cues) = try write(
        offline, to: file, format: format, cancellation: cancellation, progress: progress)
      if cancellation.isRaised { throw .cancelled }
      if let sidecar, !cues.isEmpty { try sidecar.write(WebVTTSidecar.text(cues)) }
      try file.commit()
      var finished = report
      finished.bytes = file.size
      if let sidecar {
        if cues.isEmpty {
          sidecar.discard()
        } else {
          try sidecar.commit()
          finished.subtitleSidecar = sidecar.destination
        }
      }
      return finished
    } catch {
      file.discard()
      sidecar?.discard()
      throw error
    }
  }

  /// Where ``writesSubtitleSidecar`` puts the `.vtt` file: beside the destination, with its
  /// name and the extension `vtt`.
  public var subtitleSidecarURL: URL {
    destination.deletingPathExtension().appendingPathExtension("vtt")
  }

  // The seam: `write` makes the file at the temporary name and checks it, with libavformat
  // where it is linked (StreamExport+LibAV.swift, Linux), else with AVFoundation
  // (StreamExport+AVFoundation.swift, Apple platforms; not compiled here).
  #if !canImport(CAVFormat) && !canImport(AVFoundation)
    private func write(
      _ offline: ExportInput, to file: DestinationFile, format: ExportFormat,
      cancellation: CancellationFlag, progress: @escaping @Sendable (ExportProgress) -> Void
    ) throws(ExportError) -> (ExportReport, [WebVTTCue]) {
      throw .unsupportedSource(
        path: offline.manifest.path,
        reason: "this platform has neither libavformat nor AVFoundation to remux with")
    }
  #endif
}
