import Foundation
import TestSupport
import TestTiming
import Testing

/// Secrets go only to the origin of the URL the user gave (issue 36, item 4). Two nginx
/// servers on two ports of 127.0.0.1: the home one serves an HLS playlist and a DASH MPD
/// whose segments, keys and init sections (the playlist's absolute URIs, the MPD's
/// `BaseURL`) are on the other one, which logs every header it gets. Each test pins that
/// `-H 'Authorization: …'`, `-u`, a `Cookie` header and a `--secret-header` reached the
/// other origin, which no redirect led to, through `get` and through the queue.
@Suite(.ownThreads, .timed) struct CrossOriginSecretTests {
  static let token = "Bearer h0me-t0ken"
  static let apiKey = "k3y-for-h0me"
  static let cookie = "session=c00kie-h0me"
  static let user = "alice"
  static let password = "pa55-h0me"
  static let logged = ["Authorization", "X-Api-Key", "Cookie"]

  /// The secrets, as arguments of `get` and `add`.
  static let headerSecrets = [
    "-H", "Authorization: \(token)", "-H", "X-Api-Key: \(apiKey)", "--secret-header",
    "X-Api-Key", "-H", "Cookie: \(cookie)",
  ]
  static let userSecrets = [
    "-u", "\(user):\(password)", "-H", "X-Api-Key: \(apiKey)",
    "--secret-header", "X-Api-Key",
  ]

  /// The two origins and a folder for the store and the outputs.
  struct Setup {
    let home: NginxServer
    let other: NginxServer
    let roots: [TemporaryDirectory]
    let folder: TemporaryDirectory

    init() throws {
      let homeRoot = try TemporaryDirectory()
      let otherRoot = try TemporaryDirectory()
      other = try NginxServer(
        root: otherRoot.url, options: .init(loggedHeaders: CrossOriginSecretTests.logged))
      try other.start()
      let pieces = other.baseURL.absoluteString
      let piece = TestData.bytes(count: 3_000, seed: 7)
      for path in ["h/init.mp4", "h/seg0.m4s", "d/init.mp4", "d/seg1.m4s", "d/seg2.m4s"] {
        try Self.write(piece, to: otherRoot.url.appending(path: path))
      }
      try Self.write(
        TestData.bytes(count: 16, seed: 9), to: otherRoot.url.appending(path: "h/k0.key"))
      // One segment stays at home: it must still get the secrets.
      try Self.write(piece, to: homeRoot.url.appending(path: "h/seg1.m4s"))
      let playlist = """
        #EXTM3U
        #EXT-X-VERSION:7
        #EXT-X-TARGETDURATION:2
        #EXT-X-MEDIA-SEQUENCE:0
        #EXT-X-PLAYLIST-TYPE:VOD
        #EXT-X-MAP:URI="\(pieces)/h/init.mp4"
        #EXT-X-KEY:METHOD=AES-128,URI="\(pieces)/h/k0.key",IV=0x00000000000000000000000000000001
        #EXTINF:2.0,
        \(pieces)/h/seg0.m4s
        #EXTINF:2.0,
        seg1.m4s
        #EXT-X-ENDLIST

        """
      try Self.write(Data(playlist.utf8), to: homeRoot.url.appending(path: "h/index.m3u8"))
      let manifest = """
        <?xml version="1.0" encoding="UTF-8"?>
        <MPD xmlns="urn:mpeg:dash:schema:mpd:2011" type="static" \
        mediaPresentationDuration="PT4S" minBufferTime="PT2S" \
        profiles="urn:mpeg:dash:profile:isoff-live:2011">
          <BaseURL>\(pieces)/d/</BaseURL>
          <Period>
            <AdaptationSet mimeType="video/mp4" contentType="video" segmentAlignment="true">
              <Representation id="v" bandwidth="200000" codecs="avc1.42c01e" width="320" height="180">
                <SegmentTemplate timescale="1" duration="2" startNumber="1" \
        initialization="init.mp4" media="seg$Number$.m4s"/>
              </Representation>
            </AdaptationSet>
          </Period>
        </MPD>

        """
      try Self.write(Data(manifest.utf8), to: homeRoot.url.appending(path: "d/manifest.mpd"))
      home = try NginxServer(
        root: homeRoot.url, options: .init(loggedHeaders: CrossOriginSecretTests.logged))
      try home.start()
      roots = [homeRoot, otherRoot]
      folder = try TemporaryDirectory()
    }

    static func write(_ data: Data, to url: URL) throws {
      try FileManager.default.createDirectory(
        at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
      try data.write(to: url)
    }

    var hlsURL: String { home.url("/h/index.m3u8").absoluteString }
    var dashURL: String { home.url("/d/manifest.mpd").absoluteString }
    var otherOrigin: String { other.baseURL.absoluteString }
    var store: String { folder.url.appending(path: "store").path }

    /// `offline --store STORE ARGUMENTS`.
    func offline(_ arguments: [String]) async throws -> OfflineRun {
      try await InProcessOffline.run(["--store", store] + arguments, timeout: 90)
    }

    /// `offline get URL -o FOLDER ARGUMENTS`, checked.
    func get(_ url: String, into name: String, _ arguments: [String]) async throws {
      let result = try await offline(
        ["get", url, "-o", folder.url.appending(path: name).path, "--quiet"] + arguments)
      #expect(result.status == 0, "\(result.stderrText)")
    }

    /// The requests the other origin logged under `prefix` (`/h/` or `/d/`), at least one.
    func otherLog(_ prefix: String) async throws -> [HeaderLogEntry] {
      let entries = try await other.headerLog(minimumCount: 1).filter { $0.uri.hasPrefix(prefix) }
      #expect(!entries.isEmpty, "nothing was asked of the other origin under \(prefix)")
      return entries
    }

    /// The requests the home origin logged under `prefix`.
    func homeLog(_ prefix: String) async throws -> [HeaderLogEntry] {
      try await home.headerLog(minimumCount: 1).filter { $0.uri.hasPrefix(prefix) }
    }
  }

  /// The header fields of `entry` that carry one of the test's secrets.
  static func secrets(in entry: HeaderLogEntry) -> [String] {
    logged.filter { entry[$0] != nil }
  }

  /// Pins: a playlist's absolute segment, key and init URIs on another origin got the
  /// Authorization, Cookie and secret header given for the playlist's origin.
  @Test func getOfAnHLSPlaylistSendsNoSecretToTheOriginItsPiecesAreOn() async throws {
    let setup = try Setup()
    try await setup.get(setup.hlsURL, into: "hls", Self.headerSecrets)
    for entry in try await setup.otherLog("/h/") {
      #expect(Self.secrets(in: entry).isEmpty, "\(entry.uri) got \(Self.secrets(in: entry))")
    }
    let home = try await setup.homeLog("/h/")
    #expect(home.count == 2, "\(home.map(\.uri))")
    for entry in home {
      #expect(entry["Authorization"] == Self.token, "\(entry.uri)")
      #expect(entry["X-Api-Key"] == Self.apiKey && entry["Cookie"] == Self.cookie, "\(entry.uri)")
    }
  }

  /// Pins: the segments and init section a DASH `BaseURL` placed on another origin got the
  /// `-u` credentials and the secret header.
  @Test func getOfADASHManifestSendsNoSecretToTheOriginItsBaseURLNames() async throws {
    let setup = try Setup()
    try await setup.get(setup.dashURL, into: "dash", Self.userSecrets)
    let other = try await setup.otherLog("/d/")
    #expect(other.count == 3, "\(other.map(\.uri))")
    for entry in other {
      #expect(Self.secrets(in: entry).isEmpty, "\(entry.uri) got \(Self.secrets(in: entry))")
    }
    let basic = "Basic " + Data("\(Self.user):\(Self.password)".utf8).base64EncodedString()
    #expect(try await setup.homeLog("/d/").allSatisfy { $0["Authorization"] == basic })
  }

  /// `--trust-origin` names the other origin: then its pieces get the secrets, for both
  /// kinds of stream.
  @Test func aTrustedOriginGetsTheSecrets() async throws {
    let setup = try Setup()
    let trust = ["--trust-origin", setup.otherOrigin]
    try await setup.get(setup.hlsURL, into: "hls", Self.headerSecrets + trust)
    try await setup.get(setup.dashURL, into: "dash", Self.userSecrets + trust)
    for entry in try await setup.otherLog("/") {
      #expect(entry["Authorization"] != nil && entry["X-Api-Key"] == Self.apiKey, "\(entry.uri)")
    }
  }

  /// Pins: a queued stream (`add`, then `run` in another process) sent its secrets to the
  /// other origin too, and so did `verify --remote`'s `HEAD` of each piece (the manager's
  /// stored options had no origin of their own). The trusted origin given to `add` is kept
  /// with the content.
  @Test func aQueuedStreamSendsSecretsOnlyToItsOwnAndTrustedOrigins() async throws {
    let setup = try Setup()
    var ids: [String] = []
    for arguments in [
      [setup.hlsURL] + Self.headerSecrets,
      [setup.dashURL] + Self.userSecrets + ["--trust-origin", setup.otherOrigin],
    ] {
      let added = try await setup.offline(["add"] + arguments)
      #expect(added.status == 0, "\(added.stderrText)")
      ids.append(added.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines))
    }
    let run = try await setup.offline(["run", "--quiet"])
    #expect(run.status == 0, "\(run.stderrText)")
    let downloaded = try await setup.otherLog("/h/").count
    let check = try await setup.offline(["verify", "--remote", ids[0]])
    #expect(check.status == 0, "\(check.stdoutText) \(check.stderrText)")
    let all = try await setup.otherLog("/h/")
    #expect(all.count > downloaded, "verify --remote asked the other origin nothing")
    for entry in all {
      #expect(Self.secrets(in: entry).isEmpty, "\(entry.uri) got \(Self.secrets(in: entry))")
    }
    for entry in try await setup.otherLog("/d/") {
      #expect(entry["Authorization"] != nil && entry["X-Api-Key"] == Self.apiKey, "\(entry.uri)")
    }
    #expect(try await setup.homeLog("/h/").allSatisfy { $0["Authorization"] == Self.token })
  }
}
