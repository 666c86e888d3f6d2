import Foundation

#if canImport(CAVFormat)
  extension StreamExport {
    /// The Linux side of the export seam: libavformat remuxes (``Remuxer``), then the file is
    /// checked packet by packet against the offline copy (``ExportVerifier``) while it is
    /// flushed to disk.
    func write(
      _ offline: ExportInput, to file: DestinationFile, format: ExportFormat,
      cancellation: CancellationFlag, progress: @escaping @Sendable (ExportProgress) -> Void
    ) throws(ExportError) -> (ExportReport, [WebVTTCue]) {
      let sink = log ?? { _ in }
      let registration = LibAVLog.add(sink)
      defer { LibAVLog.remove(registration) }
      let parts = try DemuxedParts(offline)
      // Its Periods' MPDs are removed with it: kept until the check has read them again.
      defer { withExtendedLifetime(parts) {} }
      let outcome = try Remuxer(
        source: offline, parts: parts.paths, path: file.temporary.path, format: format,
        cancellation: cancellation,
        log: sink, progress: progress
      ).run()
      // Measured on 1 GiB: the flush took 0.5 s after a 0.3 s check; side by side they overlap.
      let flush = BackgroundFlush(path: file.temporary.path)
      defer { flush.wait() }
      let verifier = ExportVerifier(
        path: file.temporary.path, format: format, plans: outcome.plans, source: offline,
        parts: parts.paths, cancellation: cancellation, progress: progress)
      let (verification, duration) = try verifier.verify()
      if rereadsSource { try verifier.verifySource() }
      let report = ExportReport(
        destination: destination, format: format, tracks: outcome.plans.map(\.reportTrack),
        duration: duration, expectedDuration: offline.duration, bytes: 0,
        discontinuities: outcome.discontinuities, verification: verification)
      return (report, outcome.subtitleCues)
    }
  }
#endif
