import Foundation
import OfflineHTTP
import OfflineLocks

/// A live DASH origin on 127.0.0.1 for end-to-end tests of live recording: the segments of
/// one ffmpeg DASH encode (``DASHStreamFixture/manySegments``: twelve one-second segments of
/// 160x90 H.264 and of AAC, `$Number%05d$` templates; ``DASHStreamFixture/fortySegments``
/// when more are asked for) served under a `dynamic` MPD whose
/// `availabilityStartTime` is when ``start()`` ran, so segment N becomes available N seconds
/// later, in real time (a client counts availability by the wall clock: it cannot be sped
/// up). Its `timeShiftBufferDepth` (the window a client may fetch from) is `window` seconds.
/// Every MPD response carries a fresh `Date`. It can drop a segment number (404 for
/// both streams) and ends by turning the MPD `static` once the last segment is available.
///
/// With a `periodLength`, the presentation is cut into Periods of that many segments that
/// follow one another: each appears in the MPD when it begins (``periodLead`` seconds
/// before), and leaves it once its end is out of the window. With
/// ``presentationTimeOffsets``, each stream counts its media times from its own second.
///
/// In ``Layout/timeline`` and ``Layout/time`` the MPD lists the available segments in a
/// `SegmentTimeline` instead of a template `@duration`, named by `$Number$` or by `$Time$`.
///
/// ```swift
/// let origin = try await DASHLiveOrigin(dropped: [5])
/// try origin.start()
/// defer { origin.stop() }
/// let mpd = origin.url  // http://127.0.0.1:PORT/live.mpd
/// ```
public final class DASHLiveOrigin: Sendable {
  /// How the MPD describes the segments.
  public enum Layout: String, Sendable, CaseIterable {
    /// `SegmentTemplate` with `@duration` and `$Number$`: the client works out which
    /// numbers are available.
    case number
    /// `SegmentTemplate` with a `SegmentTimeline` of the available segments, `$Number$`.
    case timeline
    /// `SegmentTemplate` with a `SegmentTimeline` of the available segments, `$Time$`
    /// (`chunk-stream0-t2000000.m4s`: the same segments by their start in microseconds).
    case time
  }

  /// The MPD's path.
  public static let manifestPath = "/live.mpd"
  /// The number of segments of each stream by default.
  public static let segmentCount = 12

  /// The number of segments of each stream: 12, or 40 at most.
  public let segmentCount: Int
  /// The `timeShiftBufferDepth` in seconds.
  public let window: Int
  /// The segments of each Period when the presentation is cut into Periods (``Layout/number``
  /// only); nil for one Period.
  public let periodLength: Int?
  /// Seconds a Period is listed before it begins (as an origin announces what comes next):
  /// from then the Period before it has a known end.
  public let periodLead: Int
  /// How the MPD describes the segments.
  public let layout: Layout
  /// The numbers answered 404.
  public let dropped: Set<Int>
  /// Per stream (video, audio), the seconds its media times start at: its `SegmentTimeline`
  /// and `$Time$` names count from there, and its `@presentationTimeOffset` is as large, so
  /// the presentation is the same (ISO/IEC 23009-1 5.3.9); one Period only.
  public let presentationTimeOffsets: [UInt64]
  /// Segments already available when the origin starts: its `availabilityStartTime` is
  /// that many seconds before ``start()`` (a client that starts from the window's start
  /// finds a backlog).
  public let backlog: Int
  /// Seconds the MPD stays `dynamic`, listing every segment, after the last one is
  /// available, before it turns `static` (``Layout/timeline`` and ``Layout/time`` only: in
  /// ``Layout/number`` a client counts later numbers as available).
  public let lingers: Double
  /// The service locations the MPD names: a `BaseURL` each (`@serviceLocation` the name,
  /// `<name>/` under the origin, serving the same segments) and a `ContentSteering` element
  /// asking `/steering.json` (route it with `server.setRoute`), its `defaultServiceLocation`
  /// the first; empty for none, the segments at the root only.
  public let serviceLocations: [String]
  /// The service location whose segments answer 503 from segment number ``failsFrom`` on
  /// (both streams); nil for none.
  public let failingLocation: String?
  /// The first segment number ``failingLocation`` fails.
  public let failsFrom: Int
  /// The folder of the ffmpeg fixture (kept while the origin lives).
  public let root: TemporaryDirectory
  /// The server.
  public let server: FaultServer
  /// The fixture's static MPD.
  private let staticText: String
  private let state = Locked(State())

  private struct State {
    var start: Date?
    var endedAt: Date?
    var thread: pthread_t?
    var stopping = false
  }

  /// Makes the fixture (shared by the process) and serves its init sections and segments;
  /// the MPD answers 404 until ``start()``.
  ///
  /// - Throws: `TestSupportError` when ffmpeg or the socket fail.
  public init(
    layout: Layout = .number, dropped: Set<Int> = [],
    segmentCount: Int = DASHLiveOrigin.segmentCount, window: Int = 30, periodLength: Int? = nil,
    presentationTimeOffsets: [UInt64] = [0, 0], periodLead: Int = 0, backlog: Int = 0,
    lingers: Double = 0, serviceLocations: [String] = [], failingLocation: String? = nil,
    failsFrom: Int = 1
  ) async throws {
    self.serviceLocations = serviceLocations
    self.failingLocation = failingLocation
    self.failsFrom = failsFrom
    precondition(lingers == 0 || layout != .number, "a number template has no last segment")
    self.backlog = max(0, backlog)
    self.lingers = max(0, lingers)
    self.periodLead = periodLead
    precondition(
      periodLength == nil || presentationTimeOffsets.allSatisfy { $0 == 0 },
      "media times offset in one Period only")
    self.presentationTimeOffsets = presentationTimeOffsets
    self.periodLength = periodLength
    self.layout = layout
    self.dropped = dropped
    self.segmentCount = min(segmentCount, 40)
    self.window = window
    root = try TemporaryDirectory(prefix: "offlinekit-dash-live")
    let fixture: DASHStreamFixture = segmentCount > 12 ? .fortySegments : .manySegments
    _ = try await fixture.make(in: root.url)
    // As long as the segments served: the fixture may have more.
    staticText = try String(
      contentsOf: root.url.appendingPathComponent("manifest.mpd"), encoding: .utf8
    ).replacingOccurrences(
      of: #"mediaPresentationDuration="[^"]*""#,
      with: #"mediaPresentationDuration="PT\#(self.segmentCount)S""#, options: .regularExpression)
    server = try FaultServer()
    for stream in 0..<2 {
      let name = "init-stream\(stream).m4s"
      server.setRoute("/" + name, .status(code: 200, body: try Data(contentsOf: file(name))))
      for number in 1...self.segmentCount {
        let name = Self.segmentName(stream: stream, number)
        let behaviour: FaultServer.Behaviour =
          dropped.contains(number)
          ? .status(code: 404) : .status(code: 200, body: try Data(contentsOf: file(name)))
        let time = presentationTimeOffsets[stream] * 1_000_000 + UInt64(number - 1) * 1_000_000
        for folder in [""] + serviceLocations.map({ $0 + "/" }) {
          let fails = folder == failingLocation.map({ $0 + "/" }) && number >= failsFrom
          let served: FaultServer.Behaviour = fails ? .status(code: 503) : behaviour
          server.setRoute("/" + folder + name, served)
          server.setRoute("/" + folder + "chunk-stream\(stream)-t\(time).m4s", served)
        }
      }
      for location in serviceLocations {
        server.setRoute(
          "/\(location)/" + name, .status(code: 200, body: try Data(contentsOf: file(name))))
      }
    }
  }

  deinit { stop() }

  /// The MPD's URL.
  public var url: URL { server.url(Self.manifestPath) }

  /// When the last segment became available and the MPD turned static; nil before.
  public var endedAt: Date? { state.withLock { $0.endedAt } }

  /// The name of segment `number` of `stream` (0 video, 1 audio).
  public static func segmentName(stream: Int, _ number: Int) -> String {
    String(format: "chunk-stream%d-%05d.m4s", stream, number)
  }

  /// The bytes of `stream`'s init section followed by its segments `numbers`, in order:
  /// what the origin's segments decode to, joined.
  public func joined(stream: Int, _ numbers: [Int]) throws -> [Data] {
    try [Data(contentsOf: file("init-stream\(stream).m4s"))]
      + numbers.map { try Data(contentsOf: file(Self.segmentName(stream: stream, $0))) }
  }

  /// Starts the clock of the presentation (its availability start is ``backlog`` seconds ago)
  /// that rewrites the MPD with a fresh `Date` ten times a second.
  ///
  /// - Throws: `TestSupportError.systemCall` when the thread cannot start.
  public func start() throws {
    state.withLock { $0.start = Date().addingTimeInterval(-Double(backlog)) }
    publish()
    let thread = try PThread.start { [self] in run() }
    state.withLock { $0.thread = thread }
  }

  /// Stops rewriting the MPD, joins the thread and stops the server. Safe to call more
  /// than once.
  public func stop() {
    let thread: pthread_t? = state.withLock { state in
      state.stopping = true
      defer { state.thread = nil }
      return state.thread
    }
    if let thread { PThread.join(thread) }
    server.stop()
  }

  /// Rewrites the MPD until it turns static, ``stop()``, or a minute past the end.
  private func run() {
    let deadline = Date().addingTimeInterval(Double(segmentCount) + lingers + 60)
    while Date() < deadline {
      let (stopping, ended) = state.withLock { ($0.stopping, $0.endedAt != nil) }
      if stopping || ended { return }
      usleep(100_000)
      publish()
    }
  }

  /// Routes the MPD as it is now: dynamic until the last segment is available, then the
  /// fixture's static one.
  private func publish() {
    guard let start = state.withLock({ $0.start }) else { return }
    let now = Date()
    let elapsed = now.timeIntervalSince(start)
    let available = min(Int(elapsed), segmentCount)
    let ended = elapsed >= Double(segmentCount) + lingers
    var text =
      ended && layout == .number
      ? staticText : manifestText(start: start, available: available, ended: ended)
    text = offsettingMediaTimes(text)
    text = namingServiceLocations(text)
    if let periodLength {
      text = cutIntoPeriods(text, every: periodLength, elapsed: now.timeIntervalSince(start))
    }
    server.setRoute(
      Self.manifestPath,
      .status(
        code: 200,
        headers: [
          ("Content-Type", "application/dash+xml"),
          ("Date", HTTPDate.format(secondsSince1970: Int(now.timeIntervalSince1970))),
        ], body: Data(text.utf8)))
    if ended { state.withLock { $0.endedAt = $0.endedAt ?? now } }
  }

  /// The fixture's MPD made dynamic, starting at `start` (static again once `ended`), with
  /// the `available` segments listed in a timeline in ``Layout/timeline`` and
  /// ``Layout/time``.
  private func manifestText(start: Date, available: Int, ended: Bool) -> String {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    var text = staticText
    if !ended {
      text = text.replacingOccurrences(
        of: #"type="static""#,
        with: #"type="dynamic" availabilityStartTime="\#(formatter.string(from: start))""#
          + #" publishTime="\#(formatter.string(from: Date()))" minimumUpdatePeriod="PT1S""#
          + #" timeShiftBufferDepth="PT\#(window)S" suggestedPresentationDelay="PT3S""#)
      text = text.replacingOccurrences(
        of: #"mediaPresentationDuration="[^"]*""#, with: "", options: .regularExpression)
    }
    guard layout != .number else { return text }
    let timeline =
      available == 0
      ? "><SegmentTimeline></SegmentTimeline>"
      : #"><SegmentTimeline><S t="0" d="1000000" r="\#(available - 1)"/></SegmentTimeline>"#
    text = text.replacingOccurrences(of: #"duration="1000000" "#, with: "")
    text = text.replacingOccurrences(
      of: #"startNumber="1">"#, with: #"startNumber="1""# + timeline)
    if layout == .time {
      text = text.replacingOccurrences(
        of: "-$Number%05d$.m4s", with: "-t$Time$.m4s")
    }
    return text
  }

  /// `text`, one Period, cut into Periods of `length` segments (`p0`, `p1`, …), each with the
  /// `@startNumber` and `@presentationTimeOffset` of its first segment: those begun by
  /// `elapsed` and not yet out of the window (every one once the MPD is static).
  private func cutIntoPeriods(_ text: String, every length: Int, elapsed: Double) -> String {
    guard let open = text.range(of: "<Period"), let close = text.range(of: "</Period>"),
      let head = text[open.lowerBound...].range(of: ">")
    else { return text }
    let inner = String(text[head.upperBound..<close.lowerBound])
    let isStatic = text.contains(#"type="static""#)
    var periods = ""
    for index in 0..<((segmentCount + length - 1) / length) {
      let first = index * length
      let end = min(first + length, segmentCount)
      guard
        isStatic || (Double(first - periodLead) <= elapsed && Double(end + window + 2) >= elapsed)
      else { continue }
      let body = inner.replacingOccurrences(
        of: #"startNumber="1""#,
        with: #"startNumber="\#(first + 1)" presentationTimeOffset="\#(first * 1_000_000)""#)
      periods += #"<Period id="p\#(index)" start="PT\#(first)S">"# + body + "</Period>\n"
    }
    return text.replacingCharacters(in: open.lowerBound..<close.upperBound, with: periods)
  }

  /// `text` with each stream's media times starting at its ``presentationTimeOffsets``
  /// (microseconds, the fixture's timescale): its timeline's first `@t` and its template's
  /// `@presentationTimeOffset`.
  private func offsettingMediaTimes(_ text: String) -> String {
    guard presentationTimeOffsets.contains(where: { $0 != 0 }),
      let audio = text.range(of: #"<Representation id="1""#)
    else { return text }
    let streams = [String(text[..<audio.lowerBound]), String(text[audio.lowerBound...])]
    return zip(streams, presentationTimeOffsets).map { stream, seconds in
      let offset = seconds * 1_000_000
      return
        stream
        .replacingOccurrences(
          of: #"startNumber="1""#,
          with: #"startNumber="1" presentationTimeOffset="\#(offset)""#
        )
        .replacingOccurrences(of: #"<S t="0""#, with: #"<S t="\#(offset)""#)
    }.joined()
  }

  /// `text` with a `BaseURL` for each of ``serviceLocations`` and their `ContentSteering`
  /// before its Period; as it is without service locations.
  private func namingServiceLocations(_ text: String) -> String {
    guard let first = serviceLocations.first else { return text }
    let steering =
      #"<ContentSteering defaultServiceLocation="\#(first)">/steering.json</ContentSteering>"#
    let bases = serviceLocations.map {
      #"<BaseURL serviceLocation="\#($0)">\#($0)/</BaseURL>"#
    }
    return text.replacingOccurrences(
      of: "<Period", with: steering + bases.joined() + "\n<Period")
  }

  private func file(_ name: String) -> URL { root.url.appendingPathComponent(name) }
}
