import Foundation
import HLSPlaylist
import OfflineHTTP
import OfflineLocks

extension HLSDownload {
  /// A live stream whose chosen variant has its audio or subtitles in renditions of their
  /// own: the variant and each chosen rendition with a URI, each recorded like a stream of its
  /// own (``HLSLiveRecorder``) into its folder, the folders a VOD download of the same
  /// master would use (`video/`, `audio0-en/`, `subtitles0-fr/`, ``HLSMasterRewriter``).
  struct LiveRenditions: Sendable {
    /// One media playlist to record.
    struct Part: Sendable {
      /// Its folder inside the content's: `video`, `audio0-en`…
      var folder: String
      /// The media playlist, as fetched.
      var media: FetchedMedia
    }

    /// The master playlist, as fetched.
    var master: MasterPlaylist
    /// What was chosen from it.
    var selection: HLSSelection
    /// The variant first, then the renditions in the master's order.
    var parts: [Part]
    /// The master's variables, which the media playlists import (`EXT-X-DEFINE`).
    var variables: [String: String] = [:]
  }

  /// The renditions of `master` that `selection` chose and that have playlists of their own,
  /// each fetched now, with the variant already fetched as `variant`; nil when the variant
  /// carries everything chosen (audio and subtitles muxed into its segments).
  func liveRenditions(
    of master: MasterPlaylist, selection: HLSSelection, variant: FetchedMedia,
    variables: [String: String]
  ) async throws(Transfer.Error) -> LiveRenditions? {
    let chosen = selection.audio + selection.subtitles
    guard chosen.contains(where: { $0.uri != nil }) else { return nil }
    var parts = [LiveRenditions.Part(folder: Self.liveVideoFolder, media: variant)]
    for rendition in chosen {
      guard let uri = rendition.uri,
        let folder = HLSMasterRewriter.folder(for: rendition, among: chosen)
      else { continue }
      let remote = try HLSURI.resolve(uri, against: url, what: "rendition")
      let loadedAt = session.clock.instant
      let media = try await mediaPlaylist(at: remote, importing: variables)
      parts.append(
        .init(folder: folder, media: FetchedMedia(url: remote, playlist: media, loadedAt: loadedAt))
      )
    }
    return LiveRenditions(
      master: master, selection: selection, parts: parts, variables: variables)
  }

  /// The folder the variant of a live stream with renditions is recorded into.
  static let liveVideoFolder = "video"

  /// Records every part of `renditions` at once, each into its folder (see
  /// ``LiveRenditions``), under an offline master playlist written first: `index.m3u8` and
  /// the growing playlists' names at the top, each naming the parts' playlists of the same
  /// kind, so a player opens the recording while it records and after. Each part starts,
  /// stops and goes on after a kill as a recording alone does, its gaps in its own ledger;
  /// a stop (a cancel) stops them all, and the first that fails stops the others.
  ///
  /// - Parameters:
  ///   - options: where each playlist starts and when it stops.
  ///   - onProgress: bytes and segments of every part, added up.
  /// - Returns: The outcome at `index.m3u8`, with every part's bytes, segments and files,
  ///   and the variant's duration.
  func recordLiveRenditions(
    _ renditions: LiveRenditions, options: LiveRecordingOptions,
    onProgress: @escaping @Sendable (OfflineProgress) -> Void
  ) async throws(Transfer.Error) -> StreamOutcome {
    try writeLiveMaster(renditions)
    let tally = Locked([String: OfflineProgress]())
    let results = await withTaskGroup(
      of: (String, Result<StreamOutcome, Transfer.Error>).self
    ) { group in
      for part in renditions.parts {
        let download = inFolder(folder.appending(path: part.folder, directoryHint: .isDirectory))
        group.addTask {
          do throws(Transfer.Error) {
            let outcome = try await download.recordOne(
              part.media.playlist, at: part.media.url, loadedAt: part.media.loadedAt,
              options: options
            ) { progress in
              let total = tally.withLock { parts in
                parts[part.folder] = progress
                return parts.values.reduce(
                  OfflineProgress(bytes: 0, total: nil, totalIsEstimate: true, segmentsDone: 0)
                ) { sum, one in
                  var sum = sum
                  sum.bytes += one.bytes
                  sum.segmentsDone = (sum.segmentsDone ?? 0) + (one.segmentsDone ?? 0)
                  return sum
                }
              }
              onProgress(total)
            }
            return (part.folder, .success(outcome))
          } catch {
            return (part.folder, .failure(error))
          }
        }
      }
      var results: [String: Result<StreamOutcome, Transfer.Error>] = [:]
      for await (folder, result) in group {
        if case .failure = result, results.values.allSatisfy({ (try? $0.get()) != nil }) {
          group.cancelAll()  // the first failure (or a cancel) stops the others
        }
        results[folder] = result
      }
      return results
    }
    var done = StreamOutcome(
      index: indexURL(), bytes: 0, segments: 0, initSections: 0, keys: 0, files: 0, duration: 0)
    for part in renditions.parts {
      // The variant's error first: a rendition stopped because the variant failed says
      // only `canceled`.
      let outcome = try results[part.folder, default: .failure(failure("not recorded"))].get()
      done.bytes += outcome.bytes
      done.segments += outcome.segments
      done.files += outcome.files
      if part.folder == Self.liveVideoFolder { done.duration = outcome.duration }
    }
    return done
  }

  /// Writes the offline master of `renditions`: `index.m3u8` naming each part's
  /// `index.m3u8`, and under the growing playlists' names the same master naming the
  /// parts' playlists of that name (``HLSGrowingPlaylists``), with the stream's manifest.
  private func writeLiveMaster(_ renditions: LiveRenditions) throws(Transfer.Error) {
    let rewriter = HLSMasterRewriter(
      entryURL: url, master: renditions.master, selection: renditions.selection)
    let offline = try rewriter.offline(sources: [], keepingRemote: false)
    try HLSManifest(entryURL: url, keys: []).write(in: folder)
    let names = [
      "index.m3u8", HLSGrowingPlaylists.restrictedIndex, HLSGrowingPlaylists.mixedIndex,
    ]
    for name in names {
      let master = Self.liveMaster(offline, naming: name)
      try AtomicFile.write(
        Data(PlaylistWriter.write(.master(master)).utf8), to: folder.appending(path: name),
        mode: ReadableFileMode.shared, url: url)
    }
    for part in renditions.parts {
      let path = folder.appending(path: part.folder, directoryHint: .isDirectory).path
      do throws(TransferFileError) {
        try FileSteps.createFolder(path)
      } catch {
        throw Transfer.Error(.file(error), url: url, destination: path)
      }
    }
  }

  /// `master` (as ``HLSMasterRewriter`` makes it, each local URI `<folder>/playlist.m3u8`)
  /// with each local URI naming the part's playlist `name` instead.
  static func liveMaster(_ master: MasterPlaylist, naming name: String) -> MasterPlaylist {
    func renamed(_ uri: String) -> String {
      guard uri.hasSuffix("/playlist.m3u8") else { return uri }
      return String(uri.dropLast("playlist.m3u8".count)) + name
    }
    var result = master
    result.variants = master.variants.map { variant in
      var variant = variant
      variant.uri = renamed(variant.uri)
      return variant
    }
    result.renditions = master.renditions.map { rendition in
      var rendition = rendition
      rendition.uri = rendition.uri.map(renamed)
      return rendition
    }
    return result
  }
}
