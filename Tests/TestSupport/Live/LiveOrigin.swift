import Foundation
import OfflineLocks

/// A live HLS origin on 127.0.0.1 for end-to-end tests of live recording: a sliding window
/// over MPEG-TS segments made by ffmpeg, published on a ``Schedule`` (real time or faster),
/// that can drop a segment (404), stall the playlist, fail it (503), restart its encoder
/// behind a discontinuity and end with `EXT-X-ENDLIST` or by silence.
///
/// Segment N of the stream is segment N - `firstSequence` of one continuous ffmpeg encode
/// (`HLSFixture.manySegments`: 128x72 H.264, a key frame at each segment), counted from the
/// last of the schedule's `restarts` at or before N when there is one, so the segments
/// of a recording, decoded in order, can be compared with ``referenceFile(of:in:)``.
///
/// One thread publishes; it ends after the last segment, on ``stop()``, or at the latest
/// when the schedule's longest run plus a minute has passed. The server is a ``FaultServer``.
///
/// ```swift
/// let origin = try await LiveOrigin(.init(segmentCount: 12, dropped: [105]))
/// origin.start()
/// defer { origin.stop() }
/// let playlist = origin.url  // http://127.0.0.1:PORT/live.m3u8
/// ```
public final class LiveOrigin: Sendable {
  /// The path of the live playlist.
  public static let playlistPath = "/live.m3u8"

  /// What the origin publishes, and when.
  public let schedule: Schedule
  /// The folder of the ffmpeg fixture (kept while the origin lives).
  public let root: TemporaryDirectory
  /// The server answering the playlist and the segments.
  public let server: FaultServer
  private let segments: [(duration: Double, body: Data)]
  /// What the origin serves for each number, in order: the fixture's segment, encrypted
  /// when the schedule has keys.
  private let served: [Data]
  /// The init section of fragmented MP4 segments.
  private let initSection: Data?
  private let state = Locked(State())

  private struct State {
    var published = 0
    /// Where the playlist and segments are now: "" or, after the move, "/v2".
    var prefix = ""
    var publishedAt: [Int: Date] = [:]
    var endedAt: Date?
    var thread: pthread_t?
    var stopping = false
    var released = false
  }

  /// Makes the fixture (one ffmpeg encode of `schedule.segmentCount` one-second segments,
  /// shared by the process) and starts the server; nothing is published before ``start()``
  /// (the playlist answers 404).
  ///
  /// - Throws: `TestSupportError` when ffmpeg or the socket fail.
  public init(_ schedule: Schedule) async throws {
    self.schedule = schedule
    root = try TemporaryDirectory(prefix: "offlinekit-live")
    let fixture: HLSFixture = schedule.media == .fragmentedMP4 ? .fmp4 : .manySegments
    let files = try await fixture.make(
      in: root.url, segmentDuration: 1, segmentCount: schedule.segmentCount)
    let segments = try Self.segments(in: files)
    guard segments.count >= schedule.segmentCount else {
      throw TestSupportError.unexpectedOutput(
        command: "ffmpeg (live origin fixture)",
        output: "\(segments.count) segments where \(schedule.segmentCount) were asked for")
    }
    self.segments = segments
    let plain = schedule.sequences.map { segments[schedule.fixtureIndex(of: $0)].body }
    served = try await Self.encrypted(plain, schedule, in: root.url)
    initSection =
      schedule.media == .fragmentedMP4
      ? try Data(contentsOf: files.folder.appendingPathComponent("init.mp4")) : nil
    server = try FaultServer()
    if let initSection {
      let served = try await Self.encryptedInitSection(initSection, schedule, in: root.url)
      for number in 0...schedule.mapChanges.count {
        server.setRoute("/init\(number).mp4", .resource(.init(body: served)))
      }
    }
    if let last = schedule.keyIndex(of: schedule.sequences.upperBound) {
      for index in 0...last {
        server.setRoute("/key\(index).key", .resource(.init(body: HLSFixture.keyBytes(index))))
      }
    }
    let master = "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=100000,RESOLUTION=128x72\nlive.m3u8\n"
    server.setRoute(
      Self.masterPath,
      .status(
        code: 200, headers: [("Content-Type", "application/vnd.apple.mpegurl")],
        body: Data(master.utf8)))
  }

  deinit { stop() }

  /// The path of a multivariant playlist whose one variant is the live playlist.
  public static let masterPath = "/master.m3u8"

  /// The multivariant playlist's URL: one variant, the live playlist at its first path.
  public var masterURL: URL { server.url(Self.masterPath) }

  /// The live playlist's URL (after ``Schedule/movesAfter``, the new one).
  public var url: URL { server.url(state.withLock { $0.prefix } + Self.playlistPath) }

  /// Publishes the first segments and starts the thread that publishes the others.
  ///
  /// - Throws: `TestSupportError.systemCall` when the thread cannot start.
  public func start() throws {
    publish(count: schedule.initialSegments)
    let thread = try PThread.start { [self] in run() }
    state.withLock { $0.thread = thread }
  }

  /// Stops publishing (the playlist stays as it is) and joins the thread, then stops the
  /// server. Safe to call more than once.
  public func stop() {
    let thread: pthread_t? = state.withLock { state in
      state.stopping = true
      defer { state.thread = nil }
      return state.thread
    }
    if let thread { PThread.join(thread) }
    server.stop()
  }

  /// Lets an origin held by ``Schedule/holdsAfter`` go on publishing. Safe to call more than
  /// once, and before the hold.
  public func release() {
    state.withLock { $0.released = true }
  }

  /// The numbers published so far, in order.
  public var published: [Int] {
    let count = state.withLock { $0.published }
    return Array(schedule.firstSequence..<(schedule.firstSequence + count))
  }

  /// When each number was published.
  public var publishedAt: [Int: Date] { state.withLock { $0.publishedAt } }

  /// When the last segment was published (with `EXT-X-ENDLIST` or not); nil before.
  public var endedAt: Date? { state.withLock { $0.endedAt } }

  /// How many times the playlist was asked for (at its first path).
  public var playlistRequests: Int { server.requests(for: Self.playlistPath).count }

  /// The bytes of segment `sequence` as the origin serves it (encrypted when the schedule
  /// has keys).
  public func segment(_ sequence: Int) -> Data {
    served[sequence - schedule.firstSequence]
  }

  /// The 16 bytes of key `index` (`/key<index>.key`) when the schedule has keys.
  public func keyBytes(_ index: Int) -> Data { HLSFixture.keyBytes(index) }

  /// The bytes of segment `sequence` before any encryption.
  public func plainSegment(_ sequence: Int) -> Data {
    segments[schedule.fixtureIndex(of: sequence)].body
  }

  /// The duration of segment `sequence`, in seconds, as the playlist lists it.
  public func duration(_ sequence: Int) -> Double {
    segments[schedule.fixtureIndex(of: sequence)].duration
  }

  /// Writes the segments `sequences`, in that order, one after another into `file` (after
  /// the init section for fragmented MP4, decrypted when encrypted): a file that decodes
  /// as the origin's segments in order.
  public func referenceFile(of sequences: [Int], in file: URL) throws {
    var data = initSection ?? Data()
    for sequence in sequences { data.append(plainSegment(sequence)) }
    try data.write(to: file)
  }

  /// Publishes the rest of the schedule, one segment per interval; bounded by the segment
  /// count and by the schedule's longest run plus a minute.
  private func run() {
    var deadline = Date().addingTimeInterval(schedule.longest + 60)
    for _ in 0..<schedule.segmentCount {
      let count = state.withLock { $0.published }
      guard count < schedule.segmentCount, Date() < deadline else { return }
      let last = schedule.firstSequence + count - 1
      if schedule.holdsAfter == last {
        let heldSince = Date()
        guard waitForRelease() else { return }
        deadline.addTimeInterval(Date().timeIntervalSince(heldSince))
      }
      guard pause(schedule.interval) else { return }
      if let stall = schedule.stalls[last], !pause(stall) { return }
      if let outage = schedule.outages[last] {
        server.setRoute(Self.playlistPath, .status(code: 503))
        guard pause(outage) else { return }
      }
      publish(count: count + 1)
      if schedule.movesAfter == last + 1 { move() }
      if count + 1 == schedule.segmentCount, let delay = schedule.endListAfter {
        guard pause(delay) else { return }
        publish(count: count + 1, closing: true)
      }
    }
  }

  /// Moves the stream to `/v2`: every path that answered before answers 403.
  private func move() {
    let (count, old) = state.withLock { state in
      defer { state.prefix = "/v2" }
      return (state.published, state.prefix)
    }
    let first = schedule.firstSequence
    for sequence in first..<(first + count) {
      server.setRoute(old + path(of: sequence), .status(code: 403))
    }
    server.setRoute(old + Self.playlistPath, .status(code: 403))
    publish(count: count, routingFrom: first)
  }

  /// What a request for segment `sequence` gets: 404 when dropped, else its bytes, paced
  /// and behind the capacity the schedule says.
  private func behaviour(of sequence: Int) -> FaultServer.Behaviour {
    if schedule.dropped.contains(sequence) { return .status(code: 404) }
    let resource = FaultServer.Behaviour.resource(
      .init(
        body: segment(sequence), etag: "\"s\(sequence)\"",
        faults: .init(bytesPerSecond: schedule.segmentBytesPerSecond)))
    guard let capacity = schedule.segmentCapacity else { return resource }
    return .overloaded(capacity: capacity, then: resource)
  }

  /// The path of segment `sequence` on the origin (before a move).
  private func path(of sequence: Int) -> String {
    Self.segmentPath(sequence, fragmented: schedule.media == .fragmentedMP4)
  }

  /// `plain`, the bodies of the schedule's numbers in order, encrypted with AES-128 as the
  /// schedule's keys say (by `openssl enc` in `folder`); unchanged when it has none.
  private static func encrypted(_ plain: [Data], _ schedule: Schedule, in folder: URL)
    async throws -> [Data]
  {
    guard schedule.segmentsPerKey != nil else { return plain }
    var bodies: [Data] = []
    let input = folder.appendingPathComponent("plain.bin")
    let output = folder.appendingPathComponent("encrypted.bin")
    for (offset, body) in plain.enumerated() {
      let sequence = schedule.firstSequence + offset
      let index = schedule.keyIndex(of: sequence) ?? 0
      try body.write(to: input)
      var iv = [UInt8](repeating: 0, count: 16)
      for byte in 0..<8 { iv[15 - byte] = UInt8(truncatingIfNeeded: sequence >> (byte * 8)) }
      try await HLSFixture.encrypt(
        input, to: output, key: HLSFixture.keyBytes(index), iv: Data(iv))
      bodies.append(try Data(contentsOf: output))
    }
    return bodies
  }

  /// Waits in short slices for ``release()``, at most ten minutes; false when ``stop()``
  /// came first or the wait ran out.
  private func waitForRelease() -> Bool {
    let until = Date().addingTimeInterval(600)
    while Date() < until {
      let (released, stopping) = state.withLock { ($0.released, $0.stopping) }
      if stopping { return false }
      if released { return true }
      usleep(20_000)
    }
    return false
  }

  /// The init section as served: encrypted with key 0 and ``Schedule/initSectionIV`` when
  /// the schedule says so, else as it is.
  private static func encryptedInitSection(
    _ plain: Data, _ schedule: Schedule, in folder: URL
  ) async throws -> Data {
    guard schedule.encryptsInitSection, schedule.segmentsPerKey != nil else { return plain }
    let input = folder.appendingPathComponent("init-plain.bin")
    let output = folder.appendingPathComponent("init-encrypted.bin")
    try plain.write(to: input)
    let iv = Data((0..<16).map { UInt8($0) })  // Schedule.initSectionIV
    try await HLSFixture.encrypt(input, to: output, key: HLSFixture.keyBytes(0), iv: iv)
    return try Data(contentsOf: output)
  }

  /// Sleeps `seconds` in short slices; false when ``stop()`` came meanwhile.
  private func pause(_ seconds: Double) -> Bool {
    let until = Date().addingTimeInterval(seconds)
    while Date() < until {
      if state.withLock({ $0.stopping }) { return false }
      usleep(useconds_t(min(until.timeIntervalSinceNow, 0.02).clamped * 1_000_000))
    }
    return true
  }

  /// Makes the first `count` segments published: their routes, the old ones gone, and the
  /// playlist of the window ending at the last.
  /// The segments from `routingFrom` (by default the new ones) get their routes.
  /// With `closing`, the playlist gets the `EXT-X-ENDLIST` that ``Schedule/endListAfter``
  /// held back.
  private func publish(count: Int, routingFrom: Int? = nil, closing: Bool = false) {
    let first = schedule.firstSequence
    let last = first + count - 1
    let low = max(first, last - schedule.window + 1)
    let (before, prefix) = state.withLock { ($0.published, $0.prefix) }
    let routed = max(low - schedule.keptAfterWindow, routingFrom ?? (first + before))
    for sequence in stride(from: routed, through: last, by: 1) {  // none when closing
      server.setRoute(prefix + path(of: sequence), behaviour(of: sequence))
    }
    let gone = low - schedule.keptAfterWindow - 1
    if gone >= first { server.setRoute(prefix + path(of: gone), .status(code: 404)) }
    let ended = count == schedule.segmentCount
    let text = Self.playlist(
      low...last, duration: duration, restarts: schedule.restarts,
      map: { self.schedule.mapPath(of: $0).map { String($0.dropFirst()) } },
      key: { self.schedule.keyIndex(of: $0).map { "key\($0).key" } },
      initKey: schedule.encryptsInitSection && schedule.segmentsPerKey != nil
        ? ("key0.key", Schedule.initSectionIV) : nil,
      ended: ended && schedule.endsWithEndList && (schedule.endListAfter == nil || closing))
    server.setRoute(
      prefix + Self.playlistPath,
      .status(
        code: 200, headers: [("Content-Type", "application/vnd.apple.mpegurl")],
        body: Data(text.utf8)))
    let now = Date()
    state.withLock { state in
      guard first + before <= last else { return }  // the move: nothing new
      for sequence in (first + before)...last { state.publishedAt[sequence] = now }
      state.published = count
      if ended { state.endedAt = now }
    }
  }
}

extension Double {
  /// The value, or 0 when it is negative.
  fileprivate var clamped: Double { Swift.max(self, 0) }
}
