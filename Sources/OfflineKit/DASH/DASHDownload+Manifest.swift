import DASHManifest
import Foundation
import OfflineStore

extension DASHDownload {
  /// The largest manifest read (a long `SegmentList` can be a few megabytes).
  static let manifestLimit = 16 << 20

  /// Fetches and parses the manifest.
  ///
  /// - Throws: ``Transfer/Error``: the fetch's error, or `invalidMedia` naming the element
  ///   when the document is not a well-formed MPD.
  func fetchManifest() async throws(Transfer.Error) -> MPD {
    try await fetchManifestNoting().mpd
  }

  /// The manifest, with what its parser ignored (``DASHSteering`` tells it for the log).
  func fetchManifestNoting() async throws(Transfer.Error) -> (mpd: MPD, ignored: [String]) {
    let data = try await session.data(
      from: url, limit: Self.manifestLimit, destination: folder.path)
    var ignored: [String] = []
    let mpd = try Self.parse(data, url: url, destination: folder.path, ignored: &ignored)
    return (mpd, ignored)
  }

  /// `data` parsed as an MPD; a failure names `destination`.
  ///
  /// - Throws: ``Transfer/Error`` (`invalidMedia`): "… is not a DASH manifest (MPD: …)" with
  ///   the parser's element path and reason.
  static func parse(_ data: Data, url: URL, destination: String) throws(Transfer.Error) -> MPD {
    var ignored: [String] = []
    return try parse(data, url: url, destination: destination, ignored: &ignored)
  }

  /// `data` parsed as an MPD, adding what the parser ignored to `ignored`.
  static func parse(_ data: Data, url: URL, destination: String, ignored: inout [String])
    throws(Transfer.Error) -> MPD
  {
    do {
      return try MPDParser.parse(data, ignored: &ignored)
    } catch let error as MPDError {
      let what =
        [.notXML, .notMPD].contains(error.kind)
        ? "is not a DASH manifest" : "is not a valid DASH manifest"
      throw Transfer.Error(
        .invalidMedia("\(url.redactedForDisplay) \(what) (\(error.description))"), url: url,
        destination: destination)
    } catch {
      throw Transfer.Error(
        .invalidMedia("\(url.redactedForDisplay) is not a DASH manifest (\(error))"), url: url,
        destination: destination)
    }
  }

  /// What to download from `mpd`, or why nothing can be: a live presentation (unless
  /// `live`: it is recorded), a chosen Representation under a `ContentProtection` (its key
  /// system named), or nothing to download at all.
  static func downloadable(
    _ mpd: MPD, configuration: StreamConfiguration, url: URL, live: Bool = false
  ) throws(Transfer.Error) -> DASHSelection {
    func refuse(_ what: String) -> Transfer.Error {
      Transfer.Error(.invalidMedia(what), url: url, destination: "")
    }
    guard live || !mpd.isLive else {
      throw refuse(
        "\(url.redactedForDisplay) is a live presentation (MPD type=\"dynamic\");"
          + " only static (on-demand) presentations can be made available offline")
    }
    let selection = DASHSelection.choose(from: mpd, options: configuration)
    guard !selection.paths.isEmpty else {
      throw refuse("\(url.redactedForDisplay) has no video, audio or text Representation")
    }
    for path in selection.paths {
      let set = mpd.periods[path.period].adaptationSets[path.adaptationSet]
      let protections =
        set.contentProtections + set.representations[path.representation].contentProtections
      guard !protections.isEmpty else { continue }
      var names: [String] = []
      for protection in protections {
        let name =
          protection.keySystemName.map { "\($0) (\(protection.schemeIdUri))" }
          ?? protection.value.map { "\(protection.schemeIdUri) \"\($0)\"" }
          ?? protection.schemeIdUri
        if !names.contains(name) { names.append(name) }
      }
      throw refuse(
        "\(path.description) is protected by "
          + names.map { String($0.prefix(200)) }.joined(separator: ", ")
          + "; content under a key system (DRM) cannot be stored for offline playback")
    }
    return selection
  }

  /// Lists the segments of each chosen Representation. For a `SegmentBase` with an
  /// `indexRange`, its `sidx` box is fetched first as a piece of its own
  /// (`p0/a0-r0/index.sidx`, resumable and kept, so a rerun reads it from disk).
  func sources(for selection: DASHSelection, in mpd: MPD, journal: TransferJournal)
    async throws(Transfer.Error) -> [DASHPlanner.Source]
  {
    let resolver = SegmentResolver()
    var listings: [RepresentationSegments] = []
    var indexes: [StreamPiece] = []
    var alternates: [[RepresentationSegments]] = []  // by listing
    var names: [[URL]] = []  // by listing: the base URL at each source
    var locations: [[String?]] = []  // by listing: the service location of each source
    for path in selection.paths {
      let listing: RepresentationSegments
      let choices = resolver.baseURLChoices(for: path, in: mpd)
      do {
        listing = try resolver.segments(
          for: path, in: mpd, manifestURL: url, choice: choices.first ?? .first)
      } catch {
        throw failure("\(url.redactedForDisplay) is not a valid DASH manifest (\(error))")
      }
      let others = Self.otherSources(of: listing, path, in: mpd, choices: choices, url)
      alternates.append(others.listings)
      names.append(others.names)
      locations.append(others.locations)
      if let index = listing.index, let range = index.byteRange, let length = range.length,
        let offset = Int64(exactly: range.first), let size = Int64(exactly: length)
      {
        _ = try HLSURI.resolve(index.url.absoluteString, against: url, what: "DASH index")
        var piece = StreamPiece(
          remote: index.url, local: DASHPlanner.folder(for: path) + "/index.sidx",
          slice: Transfer.Slice(offset: offset, length: size), estimatedBytes: size,
          rendition: listings.count)
        piece.alternates = alternates[listings.count].compactMap(\.index?.url)
        indexes.append(piece)
      }
      listings.append(listing)
    }
    if !indexes.isEmpty {
      _ = try await runner(indexes, journal: journal).run(onProgress: { _ in })
    }
    var sources: [DASHPlanner.Source] = []
    for (number, (path, var listing)) in zip(selection.paths, listings).enumerated() {
      var others = alternates[number]
      if listing.index != nil {
        let file = folder.appending(path: DASHPlanner.folder(for: path) + "/index.sidx")
        do {
          let bytes = try [UInt8](Data(contentsOf: file))
          let index = try SegmentIndex.parse(bytes)
          listing = try listing.applying(index)
          // The same file elsewhere has the same index: its segments are the same ranges.
          others = others.compactMap { try? $0.applying(index) }
        } catch {
          throw failure("the segment index (sidx) of \(path.description) cannot be read (\(error))")
        }
      }
      let set = mpd.periods[path.period].adaptationSets[path.adaptationSet]
      let representation = set.representations[path.representation]
      sources.append(
        DASHPlanner.Source(
          path: path, listing: listing, bandwidth: representation.bandwidth,
          track: DASHTrack(set),
          mimeType: representation.common.inheriting(from: set.common).mimeType,
          alternates: others, sourceNames: names[number], sourceLocations: locations[number]))
    }
    return sources
  }
}

extension DASHDownload {
  /// The base URLs and listings of the Representation at `path` under its other `BaseURL` `choices`
  /// (DASH's sources besides the first, see ``StreamFailover``), best first: each one that
  /// resolves and lists the same segments as `listing` (the same count, ranges and init
  /// section), so each segment has its URL at every source. One that does not is no
  /// alternative and is left out. With `now`, the listings are of a live MPD's segments
  /// available then.
  static func alternateListings(
    _ choices: ArraySlice<BaseURLChoice>, of listing: RepresentationSegments,
    _ path: RepresentationPath, _ mpd: MPD, _ url: URL, at now: Date? = nil
  ) -> [(base: URL, listing: RepresentationSegments, choice: BaseURLChoice)] {
    let resolver = SegmentResolver()
    var result: [(base: URL, listing: RepresentationSegments, choice: BaseURLChoice)] = []
    for choice in choices {
      guard
        let other = try? now.map({
          try resolver.availableSegments(
            for: path, in: mpd, manifestURL: url, at: $0, choice: choice)
        }) ?? resolver.segments(for: path, in: mpd, manifestURL: url, choice: choice),
        let base = try? resolver.baseURL(for: path, in: mpd, manifestURL: url, choice: choice),
        other.segments.count == listing.segments.count,
        (other.initialization == nil) == (listing.initialization == nil),
        zip(other.segments, listing.segments).allSatisfy({ $0.byteRange == $1.byteRange }),
        !result.contains(where: { $0.listing == other }), other != listing
      else { continue }
      result.append((base, other, choice))
    }
    return result
  }
}
