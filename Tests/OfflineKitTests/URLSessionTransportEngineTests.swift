import Foundation
import OfflineHTTP
import OfflineStore
import TestSupport
import TestTiming
import Testing

@testable import OfflineKit

/// The transfer engine and the manager on ``URLSessionTransport``: the engine appends only
/// bodies it asked for, whatever the transport hands it, and the results are the same bytes
/// as over ``CurlTransport`` (issue 18, item 2).
@Suite(.serialized, .timed) struct URLSessionTransportEngineTests {
  let body = TestData.bytes(count: 1 << 20, seed: 51)
  let cut = 256 << 10

  func transfer(_ url: URL, in fixture: TransferFixture) -> Transfer {
    Transfer(
      url: url, destination: fixture.destination(), journal: fixture.index.transfers,
      transport: URLSessionTransport(), configuration: TransferFixture.quickRetries)
  }

  /// A resume answered with a 206 for other bytes than asked (a lying `Content-Range`) is
  /// read, never appended: the file starts over and ends byte-exact.
  @Test func a206ForOtherBytesIsNeverAppended() async throws {
    let server = try FaultServer()
    defer { server.stop() }
    let shifted = FaultServer.Resource(body: body, faults: .init(contentRangeShift: 100))
    server.setRoute(
      "/f",
      .sequence([
        .resource(.init(body: body, faults: .init(cutAfterBodyBytes: cut))),
        .resource(shifted), .resource(.init(body: body)),
      ]))
    let fixture = try TransferFixture()
    let log = EventLog()
    let outcome = try await transfer(server.url("/f"), in: fixture).run(onEvent: log.record)

    #expect(fileData(outcome.destination) == body)
    #expect(log.restartReasons == [.rangeMismatch])
    #expect(server.requests(for: "/f")[1].headers["range"] == "bytes=\(cut)-")
  }

  /// A resume answered with 200 (the server ignores ranges) is written from byte 0, never
  /// after the bytes already there.
  @Test func a200ToARangeIsWrittenFromTheStartNotAppended() async throws {
    let server = try FaultServer()
    defer { server.stop() }
    server.setRoute(
      "/f",
      .sequence([
        .resource(.init(body: body, faults: .init(cutAfterBodyBytes: cut))),
        .resource(.init(body: body, acceptsRanges: false)),
      ]))
    let fixture = try TransferFixture()
    let log = EventLog()
    let outcome = try await transfer(server.url("/f"), in: fixture).run(onEvent: log.record)

    #expect(fileData(outcome.destination) == body)
    #expect(log.restartReasons == [.rangesIgnored])
  }

  /// A response the transport ended because the reader fell behind (FoundationNetworking
  /// cannot pause) is resumed with `Range`, and the file is still byte-exact.
  @Test func aResponseEndedForASlowReaderIsResumedByteExact() async throws {
    let big = TestData.bytes(count: 16 << 20, seed: 52)
    let server = try FaultServer()
    defer { server.stop() }
    server.setRoute("/f", .resource(.init(body: big)))
    let fixture = try TransferFixture()
    let transport = URLSessionTransport(configuration: .init(highWater: 256 << 10))
    let transfer = Transfer(
      url: server.url("/f"), destination: fixture.destination(), journal: fixture.index.transfers,
      transport: transport, configuration: TransferFixture.quickRetries)
    let log = EventLog()
    let outcome = try await transfer.run(onEvent: log.record)

    #expect(fileData(outcome.destination) == big)
    #expect(log.restartReasons.isEmpty)
    #if canImport(FoundationNetworking)
      // Ended at least once for the slow reader, and each later request asked for the rest.
      #expect(log.requestedOffsets.count > 1)
      #expect(log.requestedOffsets.dropFirst().allSatisfy { $0 > 0 })
    #endif
  }

  /// The manager, configured with URLSessionTransport, downloads a file and an HLS stream
  /// to the same bytes as with CurlTransport.
  @Test(.enabled(if: FFmpeg.isAvailable))
  func aManagerOnURLSessionGivesTheSameFilesAsOnCurl() async throws {
    let www = try TemporaryDirectory(prefix: "offlinekit-www")
    let stream = try await HLSFixture.tsVariants.make(in: www.url, segmentCount: nil)
    let file = TestData.bytes(count: 3 << 20, seed: 53)
    try file.write(to: stream.folder.appending(path: "file.bin"))
    let nginx = try NginxServer(root: stream.folder)
    try nginx.start()
    let sources = [nginx.url("/file.bin"), stream.url(on: nginx)]

    /// Every file by its path in its content's folder, and the segments each media
    /// playlist addresses (read through its byte ranges).
    func download(with transport: any HTTPTransporting) async throws -> (
      files: [String: Data], segments: [String: [Data]]
    ) {
      let store = try TemporaryDirectory()
      let manager = try OfflineManager(
        directory: store.url,
        configuration: .init(pollInterval: .milliseconds(50), transport: transport))
      var contents: [OfflineContent] = []
      for url in sources {
        let content = try await manager.content(for: OfflineSource(url: url))
        try await content.download()
        contents.append(content)
      }
      #expect(try await runUntilIdle(manager, timeout: .seconds(120)))
      var files: [String: Data] = [:]
      var segments: [String: [Data]] = [:]
      for content in contents {
        #expect(try await content.state == .downloaded)
        let folder = try await content.playbackURL().deletingLastPathComponent()
        let names = try FileManager.default.subpathsOfDirectory(atPath: folder.path)
        for name in names where !name.hasPrefix(".") {
          var isFolder: ObjCBool = false
          let path = folder.appending(path: name).path
          guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder),
            !isFolder.boolValue
          else { continue }
          files[name] = FileManager.default.contents(atPath: path)
          if name.hasSuffix(".m3u8"), let data = files[name],
            String(decoding: data, as: UTF8.self).contains("#EXTINF")
          {
            segments[name] = try OfflineSegments.bytes(URL(fileURLWithPath: path))
          }
        }
      }
      return (files, segments)
    }

    let (overCurl, curlSegments) = try await download(with: CurlTransport())
    let (overURLSession, urlSessionSegments) = try await download(with: URLSessionTransport())

    #expect(overCurl.count > 3, "the file, the playlists and the segments")
    #expect(Set(overURLSession.keys) == Set(overCurl.keys))
    #expect(!curlSegments.isEmpty)
    #expect(urlSessionSegments == curlSegments, "every media playlist's segments")
    // offline.json is JSON written with its keys in hash order (seeded per process):
    // compared as JSON. Packs fill in the order the pieces finish, so they and the media
    // playlists that address them are compared through the segments above; the rest byte
    // for byte.
    let differing = overCurl.keys.filter { name in
      guard let ours = overURLSession[name], let theirs = overCurl[name] else { return true }
      if curlSegments[name] != nil || name.hasSuffix("pack.ts") { return false }
      guard name.hasSuffix(".json") else { return ours != theirs }
      let a = try? JSONSerialization.jsonObject(with: ours) as? NSDictionary
      let b = try? JSONSerialization.jsonObject(with: theirs) as? NSDictionary
      return a == nil || a != b
    }
    #expect(differing.isEmpty, "these differ: \(differing.sorted())")
    #expect(overCurl.values.contains(file))
    nginx.stop(graceful: false)
  }
}
