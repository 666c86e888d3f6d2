import Foundation
import OfflineHTTP
import OfflineStore
import TestSupport
import TestTiming
import Testing

@testable import OfflineKit

/// Pins issue 11, item 14: a stream whose playlists use `EXT-X-DEFINE` variables was fetched
/// with `{$name}` left in its URIs (a 404 for `…prog_index.m3u8%7B$auth%7D`), and one with an
/// undefined variable was not refused. Real media made with ffmpeg, wrapped in playlists with
/// variables, served by nginx that answers 403 to any playlist or segment request without the
/// token.
@Suite(.serialized, .enabled(if: FFmpeg.isAvailable), .timed)
struct PlaylistVariablesDownloadTests {
  static let token = "s3cret-7"

  /// nginx refuses every `.ts` and `vars.m3u8` request whose `token` is not ours.
  static let tokenGate = """
    location ~ (\\.ts|vars\\.m3u8)$ { if ($arg_token != "\(token)") { return 403; } }
    """

  /// The `tsVariants` fixture with `stream.m3u8`, a multivariant playlist that takes the
  /// token from its own URL (`QUERYPARAM`) and names its variant through a variable, and
  /// `v0/vars.m3u8`, the ffmpeg-made media playlist of variant 0 with segment URIs built
  /// from a variable it imports and the token of its own URL.
  func makeStream(in www: URL) async throws -> HLSFixtureFiles {
    let fixture = try await HLSFixture.tsVariants.make(in: www)
    let master = """
      #EXTM3U
      #EXT-X-DEFINE:QUERYPARAM="token"
      #EXT-X-DEFINE:NAME="variant",VALUE="v0"
      #EXT-X-STREAM-INF:BANDWIDTH=300000,RESOLUTION=320x180,CODECS="avc1.64000d,mp4a.40.2"
      {$variant}/vars.m3u8?token={$token}

      """
    try master.write(to: www.appending(path: "stream.m3u8"), atomically: true, encoding: .utf8)
    let made = try String(contentsOf: www.appending(path: "v0/index.m3u8"), encoding: .utf8)
    var lines = [
      "#EXTM3U", "#EXT-X-DEFINE:IMPORT=\"variant\"", "#EXT-X-DEFINE:QUERYPARAM=\"token\"",
    ]
    for line in made.split(separator: "\n").dropFirst() {
      lines.append(line.hasSuffix(".ts") ? "../{$variant}/\(line)?token={$token}" : String(line))
    }
    try (lines.joined(separator: "\n") + "\n").write(
      to: www.appending(path: "v0/vars.m3u8"), atomically: true, encoding: .utf8)
    return fixture
  }

  @Test func aTokenFromTheMasterURLReachesEverySegmentAndTheCopyPlays() async throws {
    let www = try TemporaryDirectory(prefix: "offlinekit-hls-vars")
    let fixture = try await makeStream(in: www.url)
    let nginx = try NginxServer(root: www.url, options: .init(extraLocations: Self.tokenGate))
    try nginx.start()
    defer { nginx.stop(graceful: false) }
    let store = try TemporaryDirectory()
    let index = try OfflineIndex(directory: store.url.appending(path: "store"))
    let download = HLSDownload(
      url: nginx.url("/stream.m3u8?token=\(Self.token)"),
      folder: store.url.appending(path: "content"), journal: index.transfers,
      transport: CurlTransport())

    let outcome = try await download.run()

    let requests = try nginx.accessLog()
    let segments = requests.filter { $0.uri.contains(".ts") }
    #expect(segments.count == 6, "\(requests.map(\.uri))")
    #expect(
      requests.allSatisfy { $0.status == 200 }, "\(requests.map { "\($0.status) \($0.uri)" })")
    nginx.stop(graceful: false)
    let played = try await FFmpeg.run(["-v", "error", "-i", outcome.index.path, "-f", "null", "-"])
    #expect(played.status == 0)
    #expect(played.stderrText.isEmpty, "\(played.stderrText)")
    #expect(abs(outcome.duration - fixture.duration) < 0.6, "\(outcome.duration)")
    for playlist in [
      outcome.index,
      outcome.index.deletingLastPathComponent().appending(path: "video/playlist.m3u8"),
    ] {
      let text = try String(contentsOf: playlist, encoding: .utf8)
      #expect(!text.contains("EXT-X-DEFINE") && !text.contains("{$"), "\(text)")
      #expect(
        !text.contains(Self.token), "the token is not copied into \(playlist.lastPathComponent)")
    }
  }

  @Test func anUndefinedVariableFailsTheDownloadNamingTheLine() async throws {
    let www = try TemporaryDirectory(prefix: "offlinekit-hls-vars")
    _ = try await makeStream(in: www.url)
    let master = "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=300000\nv0/prog_index.m3u8{$auth}\n"
    try master.write(to: www.url.appending(path: "stream.m3u8"), atomically: true, encoding: .utf8)
    let nginx = try NginxServer(root: www.url)
    try nginx.start()
    defer { nginx.stop(graceful: false) }
    let store = try TemporaryDirectory()
    let index = try OfflineIndex(directory: store.url.appending(path: "store"))
    let download = HLSDownload(
      url: nginx.url("/stream.m3u8"), folder: store.url.appending(path: "content"),
      journal: index.transfers, transport: CurlTransport())

    let error = await #expect(throws: Transfer.Error.self) { try await download.run() }

    let message = error.map { "\($0)" } ?? ""
    #expect(message.contains("line 3"), "\(message)")
    #expect(message.contains("auth"), "\(message)")
    #expect(try nginx.accessLog().map(\.uri) == ["/stream.m3u8"], "nothing after the master")
  }
}
