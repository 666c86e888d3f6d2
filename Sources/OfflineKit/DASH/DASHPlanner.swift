import DASHManifest
import Foundation

/// Turns the segment listings of the chosen Representations into a ``DASHPlan``: local names
/// chosen by us, one piece per segment or init section, and adjacent byte ranges of one
/// remote file merged into one piece of at most ``HLSPlanner/maximumMergedBytes``, as for HLS.
///
/// A Representation's media files are numbered from 0 in the order they play
/// (`p0/a1-r0/s00000.m4s`, `s00001.m4s`…, one number per file), so the offline MPD can
/// describe them as a `SegmentTemplate` with `$Number%05d$`, the form ffmpeg 5.1 decodes to
/// the end (see `OfflineManifest`). So a media segment is never shared with another
/// Representation or Period, even when its bytes are the same; init sections are. A merged
/// piece is one file holding several segments back to back; the offline MPD lists it as one
/// segment lasting as long as they do, which ffmpeg decodes like the origin (its DASH reader
/// decodes a `SegmentList` of byte ranges of one file wrong, see NOTES-linux.md, so the copy
/// never uses byte ranges).
struct DASHPlanner {
  /// One chosen Representation and what its manifest lists for it.
  struct Source: Sendable {
    var path: RepresentationPath
    var listing: RepresentationSegments
    /// `@bandwidth`, for the size estimate; nil when unknown.
    var bandwidth: Int?
    var track: DASHTrack
    /// `@mimeType`, for the local names' extensions.
    var mimeType: String?
    /// The same listing under the Representation's other `BaseURL`s, best first: the
    /// pieces' ``StreamPiece/alternates``.
    var alternates: [RepresentationSegments] = []
    /// The base URL of the Representation at each of its sources, the primary first (one
    /// more than ``alternates``), for the report of what each served.
    var sourceNames: [URL] = []
    /// The `@serviceLocation` of each source in ``sourceNames``' order, nil where it names
    /// none: what a content steering manifest's priority picks by.
    var sourceLocations: [String?] = []
  }

  private(set) var plan = DASHPlan()
  /// The local name of each piece already placed, by remote URL and range.
  private var placed: [String: String] = [:]

  /// Plans `sources`.
  ///
  /// - Throws: ``Transfer/Error`` (`invalidMedia`) for a segment URL that is not http(s).
  static func plan(_ sources: [Source], manifestURL: URL) throws(Transfer.Error) -> DASHPlan {
    var planner = DASHPlanner()
    for (rendition, source) in sources.enumerated() {
      try planner.add(source, rendition: rendition, manifestURL: manifestURL)
      if source.sourceNames.count > planner.plan.sourceNames.count {
        planner.plan.sourceNames = source.sourceNames
        planner.plan.sourceLocations = source.sourceLocations
      }
    }
    return planner.plan
  }

  /// The folder of the Representation at `path` inside the content's folder.
  static func folder(for path: RepresentationPath) -> String {
    "p\(path.period)/a\(path.adaptationSet)-r\(path.representation)"
  }

  private mutating func add(_ source: Source, rendition: Int, manifestURL: URL)
    throws(Transfer.Error)
  {
    let folder = Self.folder(for: source.path)
    let listing = source.listing
    let bytesPerSecond = Double(max(source.bandwidth ?? Self.guessedBandwidth(source.track), 1)) / 8
    let timescale = Double(max(listing.timescale, 1))
    var initName: String?
    if let initialization = listing.initialization {
      _ = try checked(initialization.url, manifestURL, what: "Initialization")
      initName = place(
        initialization, name: "\(folder)/init.\(Self.initExtension(source.mimeType))",
        estimate: 4096, rendition: rendition,
        alternates: try checkedAll(
          source.alternates.compactMap(\.initialization?.url), manifestURL, what: "Initialization"))
      plan.initSectionCount += 1
    }
    var segments: [OfflineRepresentation.Segment] = []
    var run: (piece: Int, end: UInt64)? = nil  // the merged piece the last segment went to
    for (number, segment) in listing.segments.enumerated() {
      let remote = try checked(segment.url, manifestURL, what: "segment")
      let seconds = segment.duration.map { Double($0) / timescale } ?? 0
      plan.segmentCount += 1
      if let range = segment.byteRange, let length = range.length,
        let (index, end) = run, plan.pieces[index].remote == remote, range.first == end + 1,
        let slice = plan.pieces[index].slice,
        slice.length + Int64(length) <= HLSPlanner.maximumMergedBytes
      {
        plan.pieces[index].slice = Transfer.Slice(
          offset: slice.offset, length: slice.length + Int64(length))
        plan.pieces[index].estimatedBytes += Int64(length)
        plan.pieces[index].add(segmentOf: seconds)
        run = (index, range.last)
        var last = segments[segments.count - 1]
        last.duration = last.duration.flatMap { a in segment.duration.map { a + $0 } }
        segments[segments.count - 1] = last
        continue
      }
      let name =
        listing.initialization == nil && listing.segments.count == 1 && segment.byteRange == nil
        ? "\(folder)/\(Self.wholeFileName(source))"
        : Self.segmentName(folder, segments.count, source.mimeType)
      let estimate = Int64(bytesPerSecond * max(seconds, 0.001))
      let before = plan.pieces.count
      var alternates: [URL] = []
      for alternate in source.alternates where alternate.segments.indices.contains(number) {
        alternates.append(try checked(alternate.segments[number].url, manifestURL, what: "segment"))
      }
      let local = place(
        segment, name: name, estimate: estimate, rendition: rendition, shared: false,
        alternates: alternates)
      run = nil
      plan.pieces[before].add(segmentOf: seconds)
      if let range = segment.byteRange, range.length != nil { run = (before, range.last) }
      segments.append(
        OfflineRepresentation.Segment(name: local, time: segment.time, duration: segment.duration))
    }
    plan.files[source.path] = OfflineRepresentation(
      initialization: initName, segments: segments, timescale: listing.timescale,
      presentationTimeOffset: listing.presentationTimeOffset)
  }

  /// Adds the piece for `reference` and returns its local name; when `shared`, the name of
  /// the same bytes placed already, if any, instead.
  private mutating func place(
    _ reference: SegmentReference, name: String, estimate: Int64, rendition: Int,
    shared: Bool = true, alternates: [URL] = []
  ) -> String {
    let key = reference.url.absoluteString + "|" + (reference.byteRange?.description ?? "")
    if shared, let earlier = placed[key] { return earlier }
    if shared { placed[key] = name }
    var slice: Transfer.Slice?
    if let range = reference.byteRange, let length = range.length,
      let offset = Int64(exactly: range.first), let size = Int64(exactly: length)
    {
      slice = Transfer.Slice(offset: offset, length: size)
    }
    var piece = StreamPiece(
      remote: reference.url, local: name, slice: slice,
      estimatedBytes: slice?.length ?? estimate, rendition: rendition)
    piece.alternates = alternates
    plan.pieces.append(piece)
    return name
  }

  /// `url` if it is http(s), else a refusal naming it.
  private func checked(_ url: URL, _ manifestURL: URL, what: String) throws(Transfer.Error) -> URL {
    try HLSURI.resolve(url.absoluteString, against: manifestURL, what: "DASH \(what)")
  }

  /// `urls`, each checked as ``checked(_:_:what:)`` does.
  private func checkedAll(_ urls: [URL], _ manifestURL: URL, what: String) throws(Transfer.Error)
    -> [URL]
  {
    var result: [URL] = []
    for url in urls { result.append(try checked(url, manifestURL, what: what)) }
    return result
  }

  /// The bit rate assumed for a size estimate when `@bandwidth` is unknown: as HLS assumes
  /// for a rendition without one.
  static func guessedBandwidth(_ track: DASHTrack) -> Int {
    switch track {
    case .audio: 128_000
    case .text: 8_000
    default: 2_000_000
    }
  }

  /// The extension of an init section: `webm` for WebM, else `mp4`.
  static func initExtension(_ mimeType: String?) -> String {
    (mimeType ?? "").lowercased().hasSuffix("/webm") ? "webm" : "mp4"
  }

  /// The local name of a Representation's media file number `number` (from 0) in `folder`:
  /// `folder/s00003.m4s`, the name `OfflineManifest` writes as `s$Number%05d$.m4s`.
  static func segmentName(_ folder: String, _ number: Int, _ mimeType: String?) -> String {
    String(format: "%@/s%05d.%@", folder, number, segmentExtension(mimeType))
  }

  /// The extension of a media segment: `webm` for WebM, else `m4s`.
  static func segmentExtension(_ mimeType: String?) -> String {
    (mimeType ?? "").lowercased().hasSuffix("/webm") ? "webm" : "m4s"
  }

  /// The name of a Representation that is one whole file (a `BaseURL` and nothing else, such
  /// as a WebVTT track). ffmpeg 5.1's DASH reader opens a local file only when its name ends
  /// in `aac`, `m4a`, `m4s`, `m4v`, `mov`, `mp4`, `webm` or `ts` (its `allowed_extensions`),
  /// and it finds the format from the bytes, so a WebVTT track is `text.vtt.mp4`.
  static func wholeFileName(_ source: Source) -> String {
    let mime = (source.mimeType ?? "").lowercased()
    switch source.track {
    case .text:
      return mime.contains("ttml")
        ? "text.ttml.mp4" : mime == "text/vtt" ? "text.vtt.mp4" : "text.mp4"
    case .audio: return mime.hasSuffix("/webm") ? "audio.webm" : "audio.mp4"
    default: return mime.hasSuffix("/webm") ? "media.webm" : "media.mp4"
    }
  }
}
