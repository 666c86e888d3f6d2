import Foundation
import HLSPlaylist

/// The playlists a player opens while an HLS download runs or is suspended, from the plan and
/// the pieces on disk: a value with no I/O (``GrowingWriter`` writes them).
///
/// - `index-partial.m3u8` (``restrictedIndex``) lists, in each media playlist, the segments
///   from the first up to the first one not on disk (with its init section), as an `EVENT`
///   playlist without `EXT-X-ENDLIST` while the download runs: players reload it every
///   target duration and play on as it grows (ffmpeg and mpv start an `EVENT` playlist three
///   segments from its end unless told `-live_start_index 0`, as for any live playlist).
///   When the run stops (a pause, a failure) it gets `EXT-X-ENDLIST`, so a player plays what
///   is on disk and ends; the next run makes it grow again. Once every segment is on disk
///   it is the ordinary offline playlist, `VOD` with `EXT-X-ENDLIST`.
/// - `index-remote-partial.m3u8` (``mixedIndex``) is the whole presentation as a `VOD`
///   playlist: each segment local when it is on disk, else its origin URL (keys are local:
///   they are fetched before any segment).
/// - `index-through.m3u8` (``throughIndex``) is the whole presentation as a `VOD` playlist
///   of local names only, for the local service that reads through (`offline serve`): each
///   segment by the name of its piece, on disk or not, packed or not; the service answers
///   one on disk with its file or its pack's region, and fetches one that is not ahead of
///   the queue when a player asks for it
///   (``OfflineContent/piece(_:restrictedToAssetCache:patience:)``), so the player
///   never reaches the origin itself.
///
/// Under a multivariant playlist each chosen media playlist gets its own, beside its
/// `playlist.m3u8` (``restrictedMedia``, ``mixedMedia``), and the master points at them.
/// Small segments in packs are addressed by their byte range once they are on disk, as in
/// the finished playlists (``HLSPackAddressing``).
struct HLSGrowingPlaylists: GrowingFiles {
  /// The restricted entry playlist: only what is on disk.
  static let restrictedIndex = PlaybackEntryNames.partialPlaylist
  /// The entry playlist that also plays what is not on disk yet from the origin.
  static let mixedIndex = "index-remote-partial.m3u8"
  /// A restricted media playlist's name in its rendition's folder.
  static let restrictedMedia = PlaybackEntryNames.partialMediaPlaylist
  /// A mixed media playlist's name in its rendition's folder.
  static let mixedMedia = "remote-partial.m3u8"
  /// The entry playlist of the whole presentation by local names, which the local service
  /// reads through.
  static let throughIndex = PlaybackEntryNames.throughPlaylist
  /// A read-through media playlist's name in its rendition's folder.
  static let throughMedia = PlaybackEntryNames.throughMediaPlaylist
  /// Every name these playlists take in a content's folder, at its top or in a rendition's.
  static let names: Set<String> = [
    restrictedIndex, mixedIndex, restrictedMedia, mixedMedia, throughIndex, throughMedia,
  ]

  /// One playlist to write.
  typealias File = GrowingFile

  /// The restricted entry playlist.
  var entry: String { Self.restrictedIndex }

  /// The read-through playlists: every segment by its own name, whatever is on disk.
  var unchanging: Set<String> {
    guard case .master = plan.index else { return [Self.throughIndex] }
    return Set(plan.mediaFiles.map { Self.renamed($0.local, to: Self.throughMedia) })
      .union([Self.throughIndex])
  }

  let plan: HLSPlan

  /// The playlists for `landing`; `ended` when the run has stopped, so nothing more comes
  /// until another starts.
  func files(for landing: PieceLanding, ended: Bool = false) -> [File] {
    let packed = landing.packed.filter { landing.landed.contains($0.key) }
    let addressed = HLSPackAddressing.addressing(plan, packed: packed)
    var restricted: [MediaPlaylist] = []
    var mixed: [MediaPlaylist] = []
    var through: [MediaPlaylist] = []
    for index in plan.mediaFiles.indices {
      let planned = plan.mediaFiles[index]
      let folder = (planned.local as NSString).deletingLastPathComponent
      let onDisk = planned.playlist.segments.map { segment in
        Self.isOnDisk(segment, folder: folder, landed: landing.landed)
      }
      let local = addressed.mediaFiles[index].playlist
      restricted.append(Self.restricted(local, onDisk: onDisk, ended: ended))
      mixed.append(
        Self.mixed(
          local, remote: planned.remote, at: planned.remoteURL, onDisk: onDisk, folder: folder,
          landed: landing.landed))
      // Every segment by its own name, packed or not: the service answers a packed one with
      // its region. A byte range of a pack that grows, over a kept-alive connection, stalled
      // ffmpeg 5.1 for as long as the download ran (its first frame took 30 s of a 31 s
      // download in one round of benchmarks/read-through-hls.sh).
      var whole = planned.playlist
      whole.playlistType = .vod
      whole.hasEndList = true
      through.append(whole)
    }
    guard case .master(let master) = plan.index, case .master(let withRemote) = plan.indexWithRemote
    else {
      guard let onlyRestricted = restricted.first, let onlyMixed = mixed.first,
        let onlyThrough = through.first
      else { return [] }
      return [
        File(local: Self.restrictedIndex, text: PlaylistWriterBridge.text(.media(onlyRestricted))),
        File(local: Self.mixedIndex, text: PlaylistWriterBridge.text(.media(onlyMixed))),
        File(local: Self.throughIndex, text: PlaylistWriterBridge.text(.media(onlyThrough))),
      ]
    }
    var files: [File] = []
    for (index, planned) in plan.mediaFiles.enumerated() {
      files.append(
        File(
          local: Self.renamed(planned.local, to: Self.restrictedMedia),
          text: PlaylistWriterBridge.text(.media(restricted[index]))))
      files.append(
        File(
          local: Self.renamed(planned.local, to: Self.mixedMedia),
          text: PlaylistWriterBridge.text(.media(mixed[index]))))
      files.append(
        File(
          local: Self.renamed(planned.local, to: Self.throughMedia),
          text: PlaylistWriterBridge.text(.media(through[index]))))
    }
    // The entry playlists last: when a player opens one, its media playlists are there.
    let locals = Set(plan.mediaFiles.map(\.local))
    files.append(
      File(
        local: Self.restrictedIndex,
        text: PlaylistWriterBridge.text(
          .master(Self.pointing(master, at: Self.restrictedMedia, among: locals)))))
    files.append(
      File(
        local: Self.mixedIndex,
        text: PlaylistWriterBridge.text(
          .master(Self.pointing(withRemote, at: Self.mixedMedia, among: locals)))))
    files.append(
      File(
        local: Self.throughIndex,
        text: PlaylistWriterBridge.text(
          .master(Self.pointing(master, at: Self.throughMedia, among: locals)))))
    return files
  }

  /// Every piece of the plan: the landing of a download that finished.
  var complete: Set<String> { Set(plan.pieces.map(\.local)) }

  /// Whether `segment` of a planned (unaddressed) media playlist in `folder` is on disk:
  /// its piece, and its init section's when it has one.
  private static func isOnDisk(_ segment: Segment, folder: String, landed: Set<String>) -> Bool {
    guard landed.contains(path(folder, segment.uri)) else { return false }
    return segment.map.map { landed.contains(path(folder, $0.uri)) } ?? true
  }

  /// `local` cut before its first segment not on disk: an `EVENT` playlist that grows (that
  /// has `ended`, when the run stopped), or the ordinary `VOD` one when every segment is
  /// there.
  private static func restricted(_ local: MediaPlaylist, onDisk: [Bool], ended: Bool)
    -> MediaPlaylist
  {
    var playlist = local
    let prefix = onDisk.firstIndex(of: false) ?? onDisk.count
    let whole = prefix == onDisk.count
    playlist.segments = Array(local.segments.prefix(prefix))
    playlist.playlistType = whole ? local.playlistType : .event
    playlist.hasEndList = whole || ended
    return playlist
  }

  /// `local` with each segment not on disk taken from `remote`, served at `base` (its URI
  /// made absolute and its byte range; its init section too unless that is on disk),
  /// keeping the local keys. The planner checked every URI: one that does not resolve now
  /// keeps the local name (never a URL we did not plan).
  private static func mixed(
    _ local: MediaPlaylist, remote: MediaPlaylist, at base: URL, onDisk: [Bool], folder: String,
    landed: Set<String>
  ) -> MediaPlaylist {
    var playlist = local
    for index in playlist.segments.indices where !onDisk[index] {
      let origin = remote.segments[index]
      guard let uri = absolute(origin.uri, base) else { continue }
      playlist.segments[index].uri = uri
      playlist.segments[index].byteRange = origin.byteRange
      if let map = playlist.segments[index].map, !landed.contains(path(folder, map.uri)),
        var originMap = origin.map, let mapURI = absolute(originMap.uri, base)
      {
        originMap.uri = mapURI
        originMap.keys = map.keys  // the local keys, as the segments keep theirs
        playlist.segments[index].map = originMap
      }
    }
    playlist.playlistType = .vod
    playlist.hasEndList = true
    return playlist
  }

  private static func absolute(_ uri: String, _ base: URL) -> String? {
    (try? HLSURI.resolve(uri, against: base, what: "segment"))?.absoluteString
  }

  /// `master` with every URI among the planned media playlists' `locals` renamed to `name`
  /// in its folder.
  private static func pointing(_ master: MasterPlaylist, at name: String, among locals: Set<String>)
    -> MasterPlaylist
  {
    var master = master
    for index in master.variants.indices where locals.contains(master.variants[index].uri) {
      master.variants[index].uri = renamed(master.variants[index].uri, to: name)
    }
    for index in master.renditions.indices {
      guard let uri = master.renditions[index].uri, locals.contains(uri) else { continue }
      master.renditions[index].uri = renamed(uri, to: name)
    }
    return master
  }

  /// `local` (`audio-fr/playlist.m3u8`) with its file name replaced by `name`.
  private static func renamed(_ local: String, to name: String) -> String {
    path((local as NSString).deletingLastPathComponent, name)
  }

  private static func path(_ folder: String, _ name: String) -> String {
    folder.isEmpty ? name : "\(folder)/\(name)"
  }
}
