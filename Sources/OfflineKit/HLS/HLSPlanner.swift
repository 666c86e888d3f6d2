import Foundation
import HLSPlaylist

/// Turns fetched playlists into an ``HLSPlan``: local names chosen by us, byte ranges merged
/// per file, keys shared across renditions, and the offline playlists rewritten.
struct HLSPlanner {
  /// A media playlist to download, with the folder it goes to.
  struct Source: Sendable {
    var folder: String
    var url: URL
    var playlist: MediaPlaylist
    /// Bits per second, for the size estimate.
    var bandwidth: Int
    /// The same media playlist at the stream's other sources (backup variants, content
    /// steering pathways), in the order they are tried: the pieces' ``StreamPiece/alternates``.
    var alternates: [Alternate] = []
    /// The rendition it is (nil for the variant): where a pathway clone that a steering
    /// reload makes finds its copy (``HLSReloadClones``).
    var rendition: Rendition? = nil
  }

  /// A media playlist of the same rendition elsewhere.
  struct Alternate: Sendable {
    var url: URL
    var playlist: MediaPlaylist
  }

  /// Merged byte ranges of one file are fetched in requests of at most this many bytes, so a
  /// single-file stream still downloads in parallel.
  static let maximumMergedBytes: Int64 = 16 << 20

  private var plan: HLSPlan
  private var keyFiles: [URL: String] = [:]
  /// Local names already given, by folder and remote URL or interval.
  private var placed: [String: String] = [:]
  /// The index in `plan.pieces` of each placed piece, by the same keys.
  private var pieceIndex: [String: Int] = [:]
  private let entryURL: URL
  /// The index of the media playlist being added, for ``StreamPiece/rendition``.
  private var rendition = 0

  init(entryURL: URL, index: Playlist) {
    self.entryURL = entryURL
    self.plan = HLSPlan(index: index, indexWithRemote: index)
  }

  /// Plans `sources`; the master (when there is one) is rewritten by the caller.
  static func plan(
    entryURL: URL, sources: [Source], master: (MasterPlaylist, HLSSelection)?
  ) throws(Transfer.Error) -> HLSPlan {
    var planner = HLSPlanner(entryURL: entryURL, index: .media(sources[0].playlist))
    var duration = 0.0
    for source in sources {
      try planner.add(source)
      duration = max(duration, source.playlist.totalDuration)
    }
    planner.plan.duration = duration
    planner.plan.sources = sources
    if let video = sources.first, !video.alternates.isEmpty {
      planner.plan.sourceNames = [video.url] + video.alternates.map(\.url)
    }
    if let (master, selection) = master {
      planner.plan.warnings = selection.warnings
      let rewriter = HLSMasterRewriter(entryURL: entryURL, master: master, selection: selection)
      planner.plan.index = .master(try rewriter.offline(sources: sources, keepingRemote: false))
      planner.plan.indexWithRemote = .master(
        try rewriter.offline(sources: sources, keepingRemote: true))
    } else if let only = planner.plan.mediaFiles.first {
      planner.plan.index = .media(only.playlist)
      planner.plan.indexWithRemote = .media(only.playlist)
    }
    return planner.plan
  }

  private mutating func add(_ source: Source) throws(Transfer.Error) {
    var media = source.playlist
    guard media.hasEndList || media.playlistType == .vod else {
      throw Transfer.Error(
        .invalidMedia(
          "\(source.url.redactedForDisplay) is a live playlist (no EXT-X-ENDLIST);"
            + " only complete (VOD) streams can be made available offline"),
        url: source.url, destination: "")
    }
    rendition = plan.mediaFiles.count
    let subtitles = source.folder.hasPrefix("subtitles")
    let intervals = try mergedIntervals(media, base: source.url, subtitles: subtitles)
    var mapNames: [MapSection: String] = [:]
    let bitsPerSecond = Double(max(source.bandwidth, 1))
    for index in media.segments.indices {
      let segment = media.segments[index]
      let remote = try HLSURI.resolve(segment.uri, against: source.url, what: "segment")
      let estimate = Int64(bitsPerSecond / 8 * max(segment.duration, 0.001))
      let (local, range) = place(
        remote: remote, range: segment.byteRange, intervals: intervals,
        alternates: try Self.alternates(of: media, at: index, in: source.alternates) { $0.uri },
        wholeName: String(format: "s%05d.", index)
          + HLSURI.segmentExtension(
            of: remote, fragmented: segment.map != nil, subtitles: subtitles),
        folder: source.folder, estimate: estimate, segmentDuration: max(segment.duration, 0),
        packs: !subtitles && (segment.key.map { $0.method == .none } ?? true))
      media.segments[index].uri = local
      media.segments[index].byteRange = range
      if let key = segment.key {
        let elsewhere = try Self.keyAlternates(of: media, at: index, in: source.alternates)
        let position = segment.keys.firstIndex(where: \.isIdentityFormat) ?? 0
        media.segments[index].key = try offlineKey(
          key, base: source.url, folder: source.folder,
          alternates: elsewhere.indices.contains(position) ? elsewhere[position] : [])
      }
      if let map = segment.map {
        // An encrypted section keeps its keys, stored like the segments'; a clear one
        // (declared before the first key) stays clear in the offline playlist.
        var mapKeys: [Key] = []
        for key in map.keys {
          if let offline = try offlineKey(key, base: source.url, folder: source.folder) {
            mapKeys.append(offline)
          }
        }
        if let name = mapNames[map] {
          media.segments[index].map = MapSection(
            uri: name, byteRange: rebased(map, intervals, source.url), keys: mapKeys)
        } else {
          let mapRemote = try HLSURI.resolve(map.uri, against: source.url, what: "EXT-X-MAP")
          let (mapLocal, mapRange) = place(
            remote: mapRemote, range: map.byteRange, intervals: intervals,
            alternates: try Self.alternates(of: media, at: index, in: source.alternates) {
              $0.map.flatMap { $0.byteRange == nil ? $0.uri : nil }
            },
            wholeName: "init\(mapNames.count)."
              + HLSURI.initSectionExtension(of: mapRemote),
            folder: source.folder, estimate: 4096)
          mapNames[map] = mapLocal
          media.segments[index].map = MapSection(
            uri: mapLocal, byteRange: mapRange, keys: mapKeys)
        }
      }
    }
    plan.mediaFiles.append(
      HLSPlan.MediaFile(
        local: path(source.folder, "playlist.m3u8"), playlist: media,
        remote: source.playlist, remoteURL: source.url))
  }

  /// Adds the piece holding `range` of `remote` (or the whole of it) and returns the URI the
  /// offline playlist uses, relative to the rendition's folder, with the range rebased.
  /// `segmentDuration` counts a media segment of that many seconds in the piece (nil for an
  /// init section, which is not one). With `packs`, a media segment fetched whole may go
  /// into the folder's pack for its extension (``StreamPiece/pack``). Encrypted segments
  /// never do: ffmpeg 5.1 (and mpv) requests a key over HTTP with its segment's byte range,
  /// which a 16-byte key cannot satisfy (416), so a pack of them would not play through
  /// `offline serve`.
  private mutating func place(
    remote: URL, range: ByteRange?, intervals: [URL: [Interval]], alternates: [URL] = [],
    wholeName: String, folder: String, estimate: Int64, segmentDuration: Double? = nil,
    packs: Bool = false
  ) -> (String, ByteRange?) {
    if let range, let interval = intervals[remote]?.first(where: { $0.contains(range) }) {
      let key = path(folder, interval.name)
      if placed[key] == nil {
        placed[key] = interval.name
        pieceIndex[key] = plan.pieces.count
        var piece = StreamPiece(
          remote: remote, local: key,
          slice: Transfer.Slice(offset: interval.offset, length: interval.length),
          estimatedBytes: interval.length, rendition: rendition)
        // The same range at each backup file: the one its first segment names there.
        piece.alternates = alternates
        plan.pieces.append(piece)
      } else if let index = pieceIndex[key], plan.pieces[index].alternates != alternates {
        // The backups cut this range otherwise: it is fetched from its own source only.
        plan.pieces[index].alternates = []
      }
      if let segmentDuration, let index = pieceIndex[key] {
        plan.pieces[index].add(segmentOf: segmentDuration)
      }
      return (
        interval.name, ByteRange(length: range.length, offset: range.offset - interval.offset)
      )
    }
    let key = "\(folder)|\(remote.absoluteString)"
    if let name = placed[key] {
      if let segmentDuration, let index = pieceIndex[key] {
        plan.pieces[index].add(segmentOf: segmentDuration)
      }
      return (name, nil)
    }
    placed[key] = wholeName
    pieceIndex[key] = plan.pieces.count
    var piece = StreamPiece(
      remote: remote, local: path(folder, wholeName), slice: nil, estimatedBytes: estimate,
      segments: segmentDuration == nil ? 0 : 1, duration: segmentDuration ?? 0,
      rendition: rendition,
      pack: packs && segmentDuration != nil
        ? path(folder, "pack." + (wholeName as NSString).pathExtension) : nil)
    piece.alternates = range == nil ? alternates : []
    plan.pieces.append(piece)
    return (wholeName, nil)
  }

  private func rebased(_ map: MapSection, _ intervals: [URL: [Interval]], _ base: URL) -> ByteRange?
  {
    guard let range = map.byteRange,
      let remote = URL(string: map.uri, relativeTo: base)?.absoluteURL,
      let interval = intervals[remote]?.first(where: { $0.contains(range) })
    else { return nil }
    return ByteRange(length: range.length, offset: range.offset - interval.offset)
  }

  /// `name` inside `folder` of the content folder; the empty folder is the content folder.
  private func path(_ folder: String, _ name: String) -> String {
    folder.isEmpty ? name : "\(folder)/\(name)"
  }

  /// The key as the offline playlist has it: same method and IV, a local URI.
  private mutating func offlineKey(
    _ key: Key, base: URL, folder: String, alternates: [URL] = []
  ) throws(Transfer.Error) -> Key? {
    guard key.method != .none else { return nil }
    switch key.method {
    case .aes128, .sampleAES, .sampleAESCTR: break
    default:
      throw Transfer.Error(
        .invalidMedia("the key method \(key.method) cannot be played offline"), url: base,
        destination: "")
    }
    guard key.isIdentityFormat, let uri = key.uri else {
      throw Transfer.Error(
        .invalidMedia(
          "keys of KEYFORMAT \"\(key.keyFormat)\" (DRM such as FairPlay or Widevine)"
            + " cannot be stored for offline playback"), url: base, destination: "")
    }
    let remote = try HLSURI.resolve(uri, against: base, what: "key")
    let local = keyFiles[remote] ?? HLSKeyNames.local(index: keyFiles.count)
    if keyFiles[remote] == nil {
      keyFiles[remote] = local
      plan.keys.append(HLSPlan.KeyFile(remote: remote, local: local))
    }
    if let at = plan.keys.firstIndex(where: { $0.remote == remote }) {
      for url in alternates where url != remote && !plan.keys[at].elsewhere.contains(url) {
        plan.keys[at].elsewhere.append(url)
      }
    }
    var offline = key
    offline.uri = folder.isEmpty ? local : "../" + local
    return offline
  }
}

/// A run of bytes of one remote file fetched in one request.
struct Interval: Sendable {
  var offset: Int64
  var length: Int64
  var name: String
  var end: Int64 { offset + length }

  func contains(_ range: ByteRange) -> Bool {
    range.offset >= offset && range.end <= end
  }
}

extension HLSPlanner {
  /// The byte ranges of each remote file (segments and init sections), merged where they
  /// touch or overlap, up to ``maximumMergedBytes`` per request.
  func mergedIntervals(_ media: MediaPlaylist, base: URL, subtitles: Bool = false)
    throws(Transfer.Error) -> [URL: [Interval]]
  {
    let fragmented = media.segments.contains { $0.map != nil }
    var ranges: [URL: [ByteRange]] = [:]
    for segment in media.segments {
      if let range = segment.byteRange {
        ranges[try HLSURI.resolve(segment.uri, against: base, what: "segment"), default: []].append(
          range)
      }
      if let map = segment.map, let range = map.byteRange {
        ranges[try HLSURI.resolve(map.uri, against: base, what: "EXT-X-MAP"), default: []].append(
          range)
      }
    }
    var result: [URL: [Interval]] = [:]
    var counter = 0
    for (url, list) in ranges.sorted(by: { $0.key.absoluteString < $1.key.absoluteString }) {
      var merged: [Interval] = []
      for range in list.sorted(by: { $0.offset < $1.offset }) {
        if var last = merged.last, range.offset <= last.end,
          max(last.end, range.end) - last.offset <= Self.maximumMergedBytes
        {
          last.length = max(last.end, range.end) - last.offset
          merged[merged.count - 1] = last
        } else {
          let ext = HLSURI.segmentExtension(
            of: url, fragmented: fragmented, subtitles: subtitles)
          merged.append(
            Interval(
              offset: range.offset, length: range.length,
              name: String(format: "r%05d.", counter) + ext))
          counter += 1
        }
      }
      result[url] = merged
    }
    return result
  }
}
