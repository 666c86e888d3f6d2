import Foundation

/// Exports a downloaded stream (the offline folder OfflineKit writes for an HLS or DASH
/// content) as one playable MP4 or Matroska file: a remux, never a re-encode.
///
/// Every video, audio and subtitle track of the offline copy goes into the file, with the
/// languages and default flags of the playlist's renditions, on one continuous timeline
/// (discontinuities and timestamp resets are stitched). The file is written under a temporary
/// name beside the destination, checked against the offline copy packet by packet without
/// decoding, flushed to disk and only then renamed into place: whatever happens, nothing
/// half-written is left at the destination.
///
/// ```swift
/// let export = StreamExport(
///   source: URL(fileURLWithPath: "/downloads/film"),
///   destination: URL(fileURLWithPath: "/movies/film.mp4"),
///   log: { message in logger.info("\(message.text)") })
/// let report = try await export.run { progress in print(progress.fraction) }
/// print(report.duration, report.tracks.map(\.codec))
/// ```
public struct StreamExport: Sendable {
  /// The offline folder, or its `index.m3u8` or `index.mpd`.
  public var source: URL
  /// The file to write.
  public var destination: URL
  /// The container to write; nil takes it from the destination's extension.
  public var format: ExportFormat?
  /// Whether a file already at the destination may be replaced.
  public var overwrite: Bool
  /// Whether the check after writing also reads the offline copy a second time, instead of
  /// trusting the digests taken as it was copied: it then also catches a read that does not
  /// give the same bytes twice (a failing disk), at the cost of a second demux (about as long
  /// as the copy itself). Off by default.
  public var rereadsSource: Bool
  /// Whether the subtitle track made from WebVTT renditions is also written as a `.vtt` file
  /// beside the destination (``subtitleSidecarURL``), in the file's times. Refused like the
  /// destination when it exists without `overwrite`; not written when there is no such track.
  /// It is put in place right after the file (a failure then leaves the file in place).
  public var writesSubtitleSidecar: Bool
  /// Where messages go (libav's warnings and errors among them); nil drops them. Called from
  /// the export's thread, or from any export's thread for libav's messages, which do not say
  /// which export they belong to.
  public var log: (@Sendable (ExportLogMessage) -> Void)?

  /// Describes an export; nothing happens until ``run(progress:)``.
  public init(
    source: URL, destination: URL, format: ExportFormat? = nil, overwrite: Bool = false,
    rereadsSource: Bool = false, writesSubtitleSidecar: Bool = false,
    log: (@Sendable (ExportLogMessage) -> Void)? = nil
  ) {
    self.writesSubtitleSidecar = writesSubtitleSidecar
    self.source = source
    self.destination = destination
    self.format = format
    self.overwrite = overwrite
    self.rereadsSource = rereadsSource
    self.log = log
  }

  /// Writes the file, checks it and moves it into place.
  ///
  /// The work runs on a thread of its own, not on the caller's executor. `progress` is called
  /// on that thread each time the share done grows by a hundredth, first while writing, then
  /// while checking. Cancelling the calling task stops the export between two packets (or
  /// libav's wait on a file) and throws ``ExportError/cancelled``; the temporary file is
  /// removed.
  ///
  /// - Returns: What was written, once it is at the destination.
  /// - Throws: ``ExportError``; nothing is at the destination then (an existing file there is
  ///   left as it was).
  public func run(progress: (@Sendable (ExportProgress) -> Void)? = nil) async throws(ExportError)
    -> ExportReport
  {
    if Task.isCancelled { throw .cancelled }
    let cancellation = CancellationFlag()
    let result = await withTaskCancellationHandler {
      await withCheckedContinuation {
        (continuation: CheckedContinuation<Result<ExportReport, ExportError>, Never>) in
        let thread = Thread {
          continuation.resume(
            returning: Result { () throws(ExportError) -> ExportReport in
              try perform(cancellation: cancellation, progress: progress ?? { _ in })
            })
        }
        thread.name = "OfflineExport"
        thread.start()
      }
    } onCancel: {
      cancellation.raise()
    }
    return try result.get()
  }
}
