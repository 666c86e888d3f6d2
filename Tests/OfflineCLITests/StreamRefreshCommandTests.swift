import Foundation
import OfflineStore
import TestSupport
import TestTiming
import Testing

/// `get --refresh-command` of a stream (issue 13, item 4, its last gap), against nginx's
/// `secure_link` with the token in the path, so every playlist, key and segment URL carries
/// it. The token expires at nginx once a few media responses are logged
/// (``SignedOrigin/expireNow(_:)``: 410 from then on, as at its expiry), so every run is
/// caught midway without waiting for nginx's whole seconds; ``URLRefreshEndToEndTests``
/// waits for real expiries. Before, `get` of a playlist or an MPD ignored the option: a segment whose URL expired
/// was tried again with backoff, answered 410 each time, and the run failed.
@Suite(.serialized, .enabled(if: FFmpeg.isAvailable), .ownThreads, .timed)
struct StreamRefreshCommandTests {
  /// A stream behind an expiring path token, and a folder to work in.
  struct Setup {
    let origin: SignedOrigin
    let files: HLSFixtureFiles
    let work: TemporaryDirectory
    /// The URL path of the entry playlist or manifest under the origin's root.
    let entry: String

    /// An HLS stream of twelve one-second AES-128 segments (a key every two, about 33 KB
    /// each), or a DASH presentation of twelve one-second segments
    /// (``DASHStreamFixture/manySegments``), served at 24 KB/s per connection: nginx sends
    /// a second's worth at once and the rest when its clock reaches the next second, so a
    /// piece takes about a second.
    init(dash: Bool = false) async throws {
      origin = try SignedOrigin(files: [:], rate: "24k")
      let folder = origin.root.url.appending(path: "media")
      files =
        dash
        ? try await DASHStreamFixture.manySegments.make(in: folder)
        : try await HLSFixture.aes128Rotating.make(in: folder, duration: 12)
      work = try TemporaryDirectory()
      entry = "/media" + files.entryPath
    }

    var store: URL { work.url.appending(path: "store", directoryHint: .isDirectory) }
    var out: URL { work.url.appending(path: "movie", directoryHint: .isDirectory) }

    /// The entry URL signed to expire `seconds` from now (each `seconds` gives a token of
    /// its own), served at the origin's rate or, for a fresh token, at full speed.
    func url(expiresIn seconds: Double, fullSpeed: Bool = false) async throws -> URL {
      try origin.pathSignedURL(entry, expiresIn: seconds, fullSpeed: fullSpeed)
    }

    /// The entry URL outside the signed location: served as nginx serves any file, at full
    /// speed, for decoding the origin.
    var unsignedURL: URL { origin.server.url(entry) }

    /// `offline get URL -o movie` with `extra`, at most 4 connections: with as many pieces
    /// in flight as the adaptive choice opens, every request of a short stream starts
    /// before the token expires, and nginx checks the expiry only when a request starts.
    func get(_ url: URL, _ extra: [String] = []) async throws -> OfflineRun {
      try await InProcessOffline.run(
        ["--store", store.path, "get", url.absoluteString, "-o", out.path, "--quiet"]
          + ["--max-connections", "4"] + extra,
        timeout: 120)
    }

    /// `get` of `url` with `extra`, its token expired at the origin once `count` responses
    /// of media files (URLs ending in `suffix`) under it were logged (nginx logs a response
    /// as it ends): midway, as an expiry catches a slow download. Records an issue when the
    /// download ended first.
    func get(_ url: URL, _ extra: [String], expiringAfter count: Int, of suffix: String)
      async throws -> OfflineRun
    {
      let origin = self.origin
      let token = url.pathComponents[2]
      let expiring = Task {
        // At most 30 s, a look every 50 ms.
        for _ in 0..<600 {
          let done = ((try? origin.server.accessLog()) ?? []).filter {
            $0.uri.contains(token) && $0.uri.hasSuffix(suffix) && $0.status == 200
          }
          if done.count >= count {
            try origin.expireNow(url)
            return true
          }
          try await Task.sleep(for: .milliseconds(50))
        }
        return false
      }
      let result = try await get(url, extra)
      expiring.cancel()
      let expired = (try? await expiring.value) ?? false
      #expect(expired, "the run ended before \(count) \(suffix) responses: \(result.stderrText)")
      return result
    }

    /// The media files of the stream (segments, init sections) with their sizes, by name.
    func mediaSizes() async throws -> [String: Int64] {
      var sizes: [String: Int64] = [:]
      for name in try FileManager.default.contentsOfDirectory(atPath: files.folder.path)
      where [".ts", ".m4s", ".mp4"].contains(where: { name.hasSuffix($0) }) {
        let attributes = try FileManager.default.attributesOfItem(
          atPath: files.folder.appending(path: name).path)
        sizes[name] = (attributes[.size] as? NSNumber)?.int64Value ?? 0
      }
      return sizes
    }

    /// The requests nginx logged for `name` (a file's last path component).
    static func requests(of name: String, in log: [AccessLogEntry]) -> [AccessLogEntry] {
      log.filter { $0.uri.split(separator: "?").first?.hasSuffix("/" + name) == true }
    }

    /// The media files that nginx sent whole more than once: a 200 carrying the whole
    /// file, and then another response of it (a 200 again, or ranges adding up past it).
    func fetchedTwiceInFull(_ log: [AccessLogEntry]) async throws -> [String] {
      try await mediaSizes().compactMap { name, size in
        let sent = Self.requests(of: name, in: log).filter { [200, 206].contains($0.status) }
          .map(\.bodyBytesSent).reduce(0, +)
        return sent >= 2 * size ? name : nil
      }.sorted()
    }

    /// URLs answered 410 more than once: an expired URL tried again instead of refreshed.
    static func refusedTwice(_ log: [AccessLogEntry]) -> [String] {
      Dictionary(grouping: log.filter { $0.status == 410 }, by: \.uri)
        .filter { $0.value.count > 1 }.keys.map { String($0.suffix(60)) }.sorted()
    }

    /// Shows the log briefly: status, bytes and the URL's last two path components.
    static func shown(_ log: [AccessLogEntry]) -> String {
      log.map { entry in
        "\(entry.status) \(entry.bodyBytesSent) "
          + entry.uri.split(separator: "/").suffix(2).joined(separator: "/")
      }.joined(separator: "; ")
    }
  }

  /// The refresh command that prints `fresh` when the refused status is 410, and counts
  /// its runs in `calls` (a line each).
  static func refreshCommand(printing fresh: URL, calls: URL) -> String {
    "echo \"$OFFLINE_STATUS\" >> '\(calls.path)'; test \"$OFFLINE_STATUS\" = 410"
      + " && printf '%s\\n' '\(fresh.absoluteString)'"
  }

  /// What a download through an expiring token showed: nginx's log and both tokens.
  struct Refreshed {
    let log: [AccessLogEntry]
    let shown: String
    let oldToken: String
    let newToken: String
    /// The requests of media files (those whose URL ends in `suffix`).
    let media: [AccessLogEntry]
  }

  /// `get` of `setup`'s entry through a token that expires after `count` media responses,
  /// with a refresh command that gives a fresh token (served at full speed: what is left
  /// comes at once); checks what every stream kind must show (it
  /// finished; media came under both tokens; the command ran once, for a 410; no URL was
  /// refused twice; no media file was sent twice in full; the copy at `entry` decodes as the
  /// origin does) and returns the log for the kind's own checks.
  func refreshedMidway(
    _ setup: Setup, expiringAfter count: Int, mediaSuffix: String, entry: String
  ) async throws -> Refreshed {
    let expiring = try await setup.url(expiresIn: 900)
    let fresh = try await setup.url(expiresIn: 1800, fullSpeed: true)
    let calls = setup.work.file("calls")
    let result = try await setup.get(
      expiring,
      [
        "--refresh-command", Self.refreshCommand(printing: fresh, calls: calls),
        "--piece-retry-delay", "0.05",
      ], expiringAfter: count, of: mediaSuffix)
    #expect(result.status == 0, "\(result.stderrText)")
    let log = try setup.origin.server.accessLog()
    let refreshed = Refreshed(
      log: log, shown: Setup.shown(log), oldToken: expiring.pathComponents[2],
      newToken: fresh.pathComponents[2], media: log.filter { $0.uri.hasSuffix(mediaSuffix) })
    let shown = refreshed.shown
    // Some media came under the first token and the rest under the fresh one.
    #expect(
      refreshed.media.contains { $0.uri.contains(refreshed.oldToken) && $0.status == 200 },
      "\(shown)")
    #expect(refreshed.media.contains { $0.uri.contains(refreshed.newToken) }, "\(shown)")
    #expect(Setup.refusedTwice(log).isEmpty, "\(shown)")
    #expect((try? String(contentsOf: calls, encoding: .utf8)) == "410\n")
    #expect(try await setup.fetchedTwiceInFull(log).isEmpty, "\(shown)")
    let copy = try await FFmpeg.decodedMD5(setup.out.appending(path: entry).path, stream: "v:0")
    let original = try await FFmpeg.decodedMD5(setup.unsignedURL.absoluteString, stream: "v:0")
    #expect(copy.errors.isEmpty, "\(copy.errors)")
    #expect(copy.md5 == original.md5 && copy.md5.hasPrefix("MD5="), "\(copy.md5)")
    return refreshed
  }

  /// Pins the gap: an AES-128 stream whose token expires mid-download (the next segment's
  /// request is answered 410) is refreshed by `--refresh-command` at once, not after
  /// backoff: it finishes, decodes as the origin does, fetches its keys once and no
  /// segment twice in full.
  @Test func anHLSStreamWhoseTokenExpiresMidwayIsRefreshedAndKeepsItsPieces() async throws {
    let setup = try await Setup()
    let refreshed = try await refreshedMidway(
      setup, expiringAfter: 2, mediaSuffix: ".ts", entry: "index.m3u8")
    #expect(refreshed.log.contains { $0.status == 410 }, "\(refreshed.shown)")
    for key in setup.files.keys {
      let fetched = Setup.requests(of: key.lastPathComponent, in: refreshed.log).filter {
        $0.status == 200
      }
      #expect(fetched.count == 1, "\(key.lastPathComponent): \(refreshed.shown)")
    }
    // A segment cut by the refresh went on from its bytes on disk.
    #expect(
      refreshed.media.contains { $0.uri.contains(refreshed.newToken) && $0.status == 206 },
      "\(refreshed.shown)")
  }

  /// The same for a DASH presentation: the MPD is read again under the fresh token and the
  /// pieces on disk are kept.
  @Test func aDASHPresentationWhoseTokenExpiresMidwayIsRefreshedAndKeepsItsPieces() async throws {
    let refreshed = try await refreshedMidway(
      try await Setup(dash: true), expiringAfter: 3, mediaSuffix: ".m4s", entry: "index.mpd")
    #expect(
      refreshed.log.contains { $0.uri.hasSuffix(".mpd") && $0.uri.contains(refreshed.newToken) },
      "\(refreshed.shown)")
  }

  /// A refresh command that fails on a stream: `get` exits 1 saying no fresh URL came (the
  /// token never shown), the pieces on disk are kept, and a rerun with a good URL finishes
  /// without fetching them again.
  @Test func aFailingRefreshCommandKeepsTheStreamsPiecesForARerun() async throws {
    let setup = try await Setup()
    let expiring = try await setup.url(expiresIn: 900)
    let failed = try await setup.get(
      expiring, ["--refresh-command", "exit 3"], expiringAfter: 2, of: ".ts")
    #expect(failed.status == 1, "\(failed.stderrText)")
    #expect(failed.stderrText.contains("no fresh URL came"), "\(failed.stderrText)")
    #expect(failed.stderrText.contains("exited with status 3"), "\(failed.stderrText)")
    #expect(failed.stderrText.contains("partial data is kept"), "\(failed.stderrText)")
    // The remote names of the segments the journal records complete (in files or in the
    // pack); the local names (`s00003.ts`) never appear in the origin's log.
    let journal = try OfflineIndex(directory: setup.store).transfers
    let kept = try journal.records(under: setup.out.path).values
      .filter { $0.phase == .complete && $0.destination.hasSuffix(".ts") }
      .compactMap { URL(string: $0.url)?.lastPathComponent }
    #expect(!kept.isEmpty, "no segment on disk")
    #expect(!FileManager.default.fileExists(atPath: setup.out.appending(path: "index.m3u8").path))
    #expect(Setup.refusedTwice(try setup.origin.server.accessLog()).isEmpty)

    let fresh = try await setup.url(expiresIn: 1800, fullSpeed: true)
    let again = try await setup.get(fresh)
    #expect(again.status == 0, "\(again.stderrText)")
    let log = try setup.origin.server.accessLog()
    #expect(try await setup.fetchedTwiceInFull(log).isEmpty, "\(Setup.shown(log))")
    for name in kept {
      let later = Setup.requests(of: name, in: log).filter {
        $0.uri.contains(fresh.pathComponents[2])
      }
      #expect(later.isEmpty, "\(name) was fetched again")
    }
    let decoded = try await FFmpeg.decode(setup.out.appending(path: "index.m3u8").path)
    #expect(decoded.errors.isEmpty, "\(decoded.errors)")
    #expect(abs(decoded.duration - setup.files.duration) < 1, "\(decoded.duration) s")
  }
}
