import Foundation
import OfflineHTTP
import OfflineStore
import TestSupport
import TestTiming
import Testing

@testable import OfflineKit

/// Rows of the fault matrix (docs/Reliability.md) about HLS: segments that fail for good,
/// keys of the wrong size, hostile URIs and a master that points to itself (pieces that fail
/// for a while: `HLSPieceRetryTests`). A stream is complete (`index.m3u8` written) only when every piece is on disk;
/// a failure names the piece.
@Suite(.timed) struct FaultHLSTests {
  static let segmentCount = 4

  /// A stream on the fault server: `/v/media.m3u8`, segments `/v/seg<n>.ts`, key `/v/key.bin`.
  struct Stream {
    let server: FaultServer
    let store: TemporaryDirectory
    let index: OfflineIndex
    let segments: [Data]
    /// The media playlist served at `/v/media.m3u8`.
    let mediaText: String

    init(encrypted: Bool = true, key: Data = Data(repeating: 7, count: 16)) throws {
      server = try FaultServer()
      store = try TemporaryDirectory()
      index = try OfflineIndex(directory: store.url.appending(path: "store"))
      segments = (0..<FaultHLSTests.segmentCount).map {
        TestData.bytes(count: 50_000 + $0, seed: UInt64(40 + $0))
      }
      var text = "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:4\n#EXT-X-PLAYLIST-TYPE:VOD\n"
      if encrypted { text += "#EXT-X-KEY:METHOD=AES-128,URI=\"key.bin\"\n" }
      for (number, segment) in segments.enumerated() {
        text += "#EXTINF:4.0,\nseg\(number).ts\n"
        server.setRoute("/v/seg\(number).ts", .resource(.init(body: segment)))
      }
      text += "#EXT-X-ENDLIST\n"
      mediaText = text
      setPlaylist(text)
      server.setRoute("/v/key.bin", .resource(.init(body: key)))
    }

    func setPlaylist(_ text: String, at path: String = "/v/media.m3u8") {
      server.setRoute(path, .status(code: 200, body: Data(text.utf8)))
    }

    var folder: URL { store.url.appending(path: "content") }

    /// Piece retries as in a real run (10), from 1 ms apart so tests stay fast.
    static let fastRetries = StreamConfiguration(pieceRetryDelay: .milliseconds(1))

    func download(_ path: String = "/v/media.m3u8", options: StreamConfiguration = fastRetries)
      -> HLSDownload
    {
      HLSDownload(
        url: server.url(path), folder: folder, configuration: options, journal: index.transfers,
        transport: CurlTransport(),
        retry: RetryPolicy(
          maximumAttempts: 3, initialDelay: .milliseconds(20), maximumDelay: .milliseconds(100)))
    }

    /// Runs the download, expecting it to fail; returns the error.
    func failingRun(_ path: String = "/v/media.m3u8", options: StreamConfiguration = fastRetries)
      async
      -> Transfer.Error?
    {
      do {
        _ = try await download(path, options: options).run()
        return nil
      } catch {
        return error
      }
    }

    /// The bytes of every segment on disk, in playlist order, read through `index.m3u8`.
    func segmentsOnDisk() throws -> [Data] {
      try OfflineSegments.bytes(folder.appending(path: "index.m3u8"))
    }
  }

  /// Matrix row "a 15- or 17-byte key": refused before any segment, nothing complete.
  @Test(arguments: [15, 17])
  func aKeyOfTheWrongSizeIsRefusedBeforeAnySegment(size: Int) async throws {
    let stream = try Stream(key: Data(repeating: 1, count: size))
    let error = try #require(await stream.failingRun())
    guard case .invalidMedia(let what) = error.kind else {
      Issue.record("unexpected \(error)")
      return
    }
    #expect(what.contains("\(size) bytes, not 16"), "\(what)")
    #expect(stream.server.requests(for: "/v/seg0.ts").isEmpty)
    #expect(!stream.download().isComplete)
  }

  /// Matrix row "a segment that stays 404": the queue tries it again up to the piece
  /// retries (issue 11, item 8), then suspends the content with the segment named in its
  /// error; it is never `downloaded` and has no offline playlist.
  @Test func aSegmentThatStaysMissingIsNeverMarkedDownloaded() async throws {
    let stream = try Stream()
    stream.server.setRoute("/v/seg1.ts", .status(code: 404))
    let fixture = try ManagerFixture()
    let (content, recorder) = try await fixture.watched(
      stream.server.url("/v/media.m3u8"), id: "stream")
    try await content.download(DownloadConfiguration(stream: Stream.fastRetries))
    try await fixture.running {
      #expect(await recorder.waitFor { $0.name == "state:suspended" })
    }
    let snapshot = try await content.snapshot
    #expect(snapshot.state == .suspended)
    #expect(
      snapshot.lastError?.description.contains("/v/seg1.ts") == true,
      "\(snapshot.lastError?.description ?? "")")
    #expect(!recorder.names.contains("finished"))
    #expect(stream.server.requests(for: "/v/seg1.ts").count == 11, "one try and 10 retries")
    // What plays is the growing playlist of what is on disk (issue 40), which ends before
    // the missing segment; never the offline playlist of a complete stream.
    let partial = try await content.playbackURL()
    #expect(partial.lastPathComponent == "index-partial.m3u8")
    let listed = try String(contentsOf: partial, encoding: .utf8)
    #expect(!listed.contains("s00001") && listed.contains("#EXT-X-ENDLIST"), "\(listed)")
    #expect(
      !FileManager.default.fileExists(
        atPath: fixture.contentFolder("stream").appending(path: "index.m3u8").path))
  }

  /// Matrix rows "playlist URIs ../../etc/passwd and /etc/shadow": they are fetched from the
  /// origin (where they resolve) and stored under our own names inside the folder.
  @Test func climbingAndAbsoluteURIsAreFetchedRemotelyAndStoredUnderOurNames() async throws {
    let stream = try Stream(encrypted: false)
    let passwd = FileManager.default.contents(atPath: "/etc/passwd")
    let shadow = FileManager.default.contents(atPath: "/etc/shadow")
    let fakes = [Data("remote passwd\n".utf8), Data("remote shadow\n".utf8)]
    stream.server.setRoute("/etc/passwd", .resource(.init(body: fakes[0])))
    stream.server.setRoute("/etc/shadow", .resource(.init(body: fakes[1])))
    stream.setPlaylist(
      """
      #EXTM3U
      #EXT-X-TARGETDURATION:4
      #EXTINF:4.0,
      ../../etc/passwd
      #EXTINF:4.0,
      /etc/shadow
      #EXT-X-ENDLIST

      """)
    _ = try await stream.download().run()

    #expect(try stream.segmentsOnDisk() == fakes)
    #expect(FileManager.default.contents(atPath: "/etc/passwd") == passwd)
    #expect(FileManager.default.contents(atPath: "/etc/shadow") == shadow)
    let names = try FileManager.default.subpathsOfDirectory(atPath: stream.folder.path)
    #expect(!names.contains { $0.contains("passwd") || $0.contains("shadow") }, "\(names)")
  }

  /// Matrix row "playlist URI file:///etc/passwd": refused before anything is fetched.
  @Test func aFileURIInAPlaylistIsRefusedBeforeAnyFetch() async throws {
    let stream = try Stream(encrypted: false)
    stream.setPlaylist(
      "#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXTINF:4.0,\nseg0.ts\n#EXTINF:4.0,\n"
        + "file:///etc/passwd\n#EXT-X-ENDLIST\n")
    let error = try #require(await stream.failingRun())
    guard case .invalidMedia(let what) = error.kind else {
      Issue.record("unexpected \(error)")
      return
    }
    #expect(what.contains("not an http or https URL"), "\(what)")
    #expect(stream.server.requests(for: "/v/seg0.ts").isEmpty)
    let names = (try? FileManager.default.subpathsOfDirectory(atPath: stream.folder.path)) ?? []
    #expect(!names.contains { $0.contains("passwd") })
  }

  /// Matrix row "a master that points to itself": one fetch of it as a variant, then a
  /// clear error; no loop.
  @Test func aMasterThatPointsToItselfFailsAtOnce() async throws {
    let stream = try Stream()
    stream.setPlaylist(
      "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=100000\nmaster.m3u8\n", at: "/v/master.m3u8")
    let error = try #require(await stream.failingRun("/v/master.m3u8"))
    guard case .invalidMedia(let what) = error.kind else {
      Issue.record("unexpected \(error)")
      return
    }
    #expect(what.contains("master playlist where a media playlist belongs"), "\(what)")
    #expect(stream.server.requests(for: "/v/master.m3u8").count == 2)
  }
}
