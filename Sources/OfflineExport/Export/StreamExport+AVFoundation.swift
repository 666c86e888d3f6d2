// Written for Apple platforms, not compiled in our CI (no Apple toolchain runs here).
#if !canImport(CAVFormat) && canImport(AVFoundation)
  import AVFoundation
  import Foundation
  import Synchronization

  extension StreamExport {
    /// The Apple side of the export seam: AVFoundation's passthrough export (a remux, never
    /// a re-encode) of the offline copy's fragmented MP4 tracks (``JoinedTracks``: the variant
    /// and each audio rendition, with its language) into one MP4 with its `moov` box first.
    /// Matroska, MPEG-TS, encrypted segments, discontinuities, DASH and subtitles are refused
    /// or left out here. The check after writing is lighter than libav's: the file's tracks
    /// and its duration within one segment of the playlist's, not packet digests.
    func write(
      _ offline: ExportInput, to file: DestinationFile, format: ExportFormat,
      cancellation: CancellationFlag, progress: @escaping @Sendable (ExportProgress) -> Void
    ) throws(ExportError) -> (ExportReport, [WebVTTCue]) {
      guard format == .mp4 else {
        throw .unsupportedSource(
          path: offline.manifest.path, reason: "AVFoundation writes MP4 only; name a .mp4 file")
      }
      let joined = try JoinedTracks(offline)
      progress(ExportProgress(phase: .writing, fraction: 0, packets: 0))
      let box = AVExportResult()
      let files = joined.files
      let temporary = file.temporary
      let task = Task.detached { box.set(await AVExport.run(files, to: temporary)) }
      // This is the export's own thread: it waits here, and passes a cancel on.
      while !box.isSet {
        if cancellation.isRaised { task.cancel() }
        usleep(20_000)
      }
      guard let result = box.result else { throw .cancelled }
      let written = try result.get()
      guard written.tracks.count >= files.count else {
        throw .verificationFailed(
          detail: "the file has \(written.tracks.count) tracks for \(files.count) joined")
      }
      let difference = written.duration - offline.duration
      guard abs(difference) <= offline.segmentDuration else {
        throw .verificationFailed(
          detail: "the file lasts \(written.duration) s, the playlist \(offline.duration) s")
      }
      progress(ExportProgress(phase: .verifying, fraction: 1, packets: 0))
      let report = ExportReport(
        destination: destination, format: format, tracks: written.tracks,
        duration: written.duration, expectedDuration: offline.duration, bytes: 0,
        discontinuities: 0,
        verification: ExportReport.Verification(
          packetsCompared: 0, durationDifference: difference,
          durationTolerance: offline.segmentDuration))
      return (report, [])
    }
  }

  /// The AVFoundation work, on the cooperative pool: every value it takes and gives is
  /// `Sendable`; the composition and the session live and die inside ``run(_:to:)``.
  enum AVExport {
    /// What was written: its duration in seconds and its tracks.
    struct Written: Sendable {
      var duration: Double
      var tracks: [ExportReport.Track]
    }

    /// Puts every track of `files` in one composition from time zero, exports it with the
    /// passthrough preset to `destination` (replaced), and reads back what was written.
    static func run(_ files: [JoinedTracks.File], to destination: URL) async
      -> Result<Written, ExportError>
    {
      do {
        let composition = AVMutableComposition()
        for file in files {
          let asset = AVURLAsset(url: file.url)
          let duration = try await asset.load(.duration)
          for track in try await asset.load(.tracks) {
            guard
              let added = composition.addMutableTrack(
                withMediaType: track.mediaType, preferredTrackID: kCMPersistentTrackID_Invalid)
            else { continue }
            try added.insertTimeRange(
              CMTimeRange(start: .zero, duration: duration), of: track, at: .zero)
            if let language = file.language { added.extendedLanguageTag = language }
          }
        }
        guard
          let session = AVAssetExportSession(
            asset: composition, presetName: AVAssetExportPresetPassthrough)
        else {
          return .failure(
            .unsupportedSource(
              path: destination.path, reason: "AVFoundation cannot pass these tracks through"))
        }
        session.shouldOptimizeForNetworkUse = true  // the moov box before the media
        // DestinationFile made the temporary file, empty; the session writes a new one.
        try? FileManager.default.removeItem(at: destination)
        try await session.export(to: destination, as: .mp4)
        return .success(try await written(destination))
      } catch is CancellationError {
        return .failure(.cancelled)
      } catch {
        return .failure(
          .unsupportedSource(
            path: destination.path, reason: "AVFoundation: \(error.localizedDescription)"))
      }
    }

    /// The duration and tracks of the file at `url`, codecs named by their four-character
    /// codes (`avc1`, `mp4a`).
    private static func written(_ url: URL) async throws -> Written {
      let asset = AVURLAsset(url: url)
      let duration = try await asset.load(.duration).seconds
      var tracks: [ExportReport.Track] = []
      for track in try await asset.load(.tracks) {
        let kind: ExportReport.Track.Kind =
          track.mediaType == .video ? .video : track.mediaType == .audio ? .audio : .subtitle
        let formats = try await track.load(.formatDescriptions)
        let code = formats.first.map { CMFormatDescriptionGetMediaSubType($0) } ?? 0
        let codec = String(
          decoding: [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: code >> $0) }, as: UTF8.self)
        let language = try await track.load(.extendedLanguageTag)
        tracks.append(
          ExportReport.Track(
            kind: kind, codec: codec, language: language, isDefault: tracks.isEmpty,
            packets: 0, bytes: 0))
      }
      return Written(duration: duration, tracks: tracks)
    }
  }

  /// The result handed from the AVFoundation task to the export's thread.
  final class AVExportResult: Sendable {
    private let stored = Mutex<Result<AVExport.Written, ExportError>?>(nil)

    /// The result, once set.
    var result: Result<AVExport.Written, ExportError>? { stored.withLock { $0 } }
    /// Whether it is set.
    var isSet: Bool { result != nil }

    /// Sets it, once.
    func set(_ result: Result<AVExport.Written, ExportError>) {
      stored.withLock { $0 = $0 ?? result }
    }
  }
#endif
