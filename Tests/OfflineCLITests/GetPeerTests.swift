import Foundation
import OfflineKit
import OfflineService
import TestSupport
import TestTiming
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// `offline get URL --peer http://host:8380` end to end (issue 43, item 4): a store whose
/// `offline serve` holds the file gives it to another store, the origin (nginx, its access
/// log read) answering at most the one-byte probe; a peer without the file or down leaves
/// the file to the origin, the second named; `--mirror` of the service's `/content/` URL
/// with its token works as any mirror.
@Suite(.ownThreads, .timed) struct GetPeerTests {
  static let token = "peer-token-0123456789abcdef"

  /// A store with its queue and an `OfflineService` on a free loopback port, with a token.
  final class Peer: Sendable {
    let store: TemporaryDirectory
    let manager: OfflineManager
    let service: OfflineService

    init() async throws {
      store = try TemporaryDirectory(prefix: "offline-peer")
      manager = try OfflineManager(
        directory: store.url,
        configuration: .init(pollInterval: .milliseconds(50), minimumFreeSpace: 0))
      try await manager.start()
      service = try OfflineService(
        manager: manager,
        configuration: .init(
          address: ListenAddress(host: "127.0.0.1", port: 0), token: GetPeerTests.token))
    }

    /// The peer as `--peer` names it: the link `offline serve` prints.
    var link: String {
      "http://127.0.0.1:\(service.configuration.address.port)/?token=\(GetPeerTests.token)"
    }

    /// Downloads `url` through the queue; its id once downloaded.
    func download(_ url: URL) async throws -> String {
      let content = try await manager.add([OfflineSource(url: url)]).first!
      let deadline = Date().addingTimeInterval(60)
      while Date() < deadline {
        if try await manager.snapshot(id: content.id).state == .downloaded { return content.id }
        try await Task.sleep(for: .milliseconds(50))
      }
      throw PeerTimeout(url: url)
    }

    func close() async {
      service.stop()
      await manager.stop(suspendingRunning: true)
    }
  }

  struct PeerTimeout: Error {
    let url: URL
  }

  struct Finished: Decodable {
    struct Source: Decodable {
      let url: String
      let primary: Bool
      let bytes: Int64
      let dropped: String?
    }
    let event: String
    let sources: [Source]?
  }

  static func finished(_ run: OfflineRun) -> Finished? {
    run.stdoutText.split(separator: "\n")
      .compactMap { try? JSONDecoder().decode(Finished.self, from: Data($0.utf8)) }
      .first { $0.event == "finished" }
  }

  @Test func aPeerThatHoldsTheFileServesItAndTheOriginOnlyAnswersTheProbe() async throws {
    let setup = try GetCommandTests.Setup(size: 12 << 20)
    let peer = try await Peer()
    let url = setup.nginx.url("/file.bin")
    _ = try await peer.download(url)
    let before = try await setup.nginx.accessLog(minimumCount: 1).count
    let result = try await peer.serving(
      try await setup.verifiedGet() + ["--peer", peer.link, "--json"], for: setup)
    setup.expectWholeFile(result)
    let after = Array(try setup.nginx.accessLog().dropFirst(before))
    #expect(after.count <= 1, "\(after)")
    #expect(after.allSatisfy { $0.range == "bytes=0-0" && $0.bodyBytesSent <= 1 }, "\(after)")
    let sources = try #require(Self.finished(result)?.sources)
    #expect(sources.count == 2)
    #expect(sources.first?.primary == true && sources.first?.bytes == 0)
    #expect(sources.last?.url.hasPrefix("http://127.0.0.1:") == true)
    #expect(sources.last?.url.contains(GetPeerTests.token) == false)
    #expect(sources.last?.bytes == Int64(setup.body.count))
    // Run again: complete, so neither the peer (now gone) nor the origin is asked.
    let again = try await InProcessOffline.run(
      try await setup.verifiedGet() + ["--peer", peer.link], store: setup.store, in: setup.out)
    #expect(again.status == 0, "\(again.stderrText)")
    #expect(again.stderrText.contains("Already complete"), "\(again.stderrText)")
    #expect(!again.stderrText.contains("the peer could not"), "\(again.stderrText)")
  }

  @Test func aPeerWithoutTheFileLeavesItToTheOriginWithoutAWarning() async throws {
    let setup = try GetCommandTests.Setup(size: 12 << 20)
    let peer = try await Peer()
    let result = try await peer.serving(
      try await setup.verifiedGet() + ["--peer", peer.link], for: setup)
    setup.expectWholeFile(result)
    #expect(!result.stderrText.contains("Not using"), "\(result.stderrText)")
    #expect(try await setup.bodyBytesSent() >= Int64(setup.body.count))
  }

  @Test func aPeerThatIsDownIsNamedAndTheOriginServes() async throws {
    let setup = try GetCommandTests.Setup(size: 2 << 20)
    let down = "http://127.0.0.1:\(try FreePort.make())/?token=\(GetPeerTests.token)"
    let result = try await InProcessOffline.run(
      try await setup.verifiedGet() + ["--peer", down], store: setup.store, in: setup.out)
    setup.expectWholeFile(result)
    #expect(result.stderrText.contains("the peer could not be reached"), "\(result.stderrText)")
    #expect(!result.stderrText.contains(GetPeerTests.token))
  }

  @Test func aPeerAskedWithTheWrongTokenIsNamedAndTheOriginServes() async throws {
    let setup = try GetCommandTests.Setup(size: 2 << 20)
    let peer = try await Peer()
    _ = try await peer.download(setup.nginx.url("/file.bin"))
    let wrong =
      "http://127.0.0.1:\(peer.service.configuration.address.port)/?token=wrong-token-0123456789"
    let result = try await peer.serving(
      try await setup.verifiedGet() + ["--peer", wrong], for: setup)
    setup.expectWholeFile(result)
    #expect(result.stderrText.contains("check its token"), "\(result.stderrText)")
    #expect(!result.stderrText.contains("wrong-token"))
  }

  @Test func theServicesContentURLWithItsTokenIsAMirror() async throws {
    let setup = try GetCommandTests.Setup(size: 12 << 20)
    let peer = try await Peer()
    let id = try await peer.download(setup.nginx.url("/file.bin"))
    let port = peer.service.configuration.address.port
    let mirror = "http://127.0.0.1:\(port)/content/\(id)/file.bin?token=\(GetPeerTests.token)"
    let result = try await peer.serving(
      try await setup.verifiedGet() + ["--mirror", mirror, "--json"], for: setup)
    setup.expectWholeFile(result)
    let sources = try #require(Self.finished(result)?.sources)
    #expect(sources.count == 2)
    #expect(sources.last?.dropped == nil, "\(sources.last?.dropped ?? "")")
    #expect((sources.last?.bytes ?? 0) > 0)
    #expect(sources.reduce(0) { $0 + $1.bytes } == Int64(setup.body.count))
  }

  @Test func aQueuedFileAddedWithAPeerTakesItsBytesFromThePeer() async throws {
    let fixture = try QueueFixture()
    let peer = try await Peer()
    let url = fixture.url("large.bin")
    _ = try await peer.download(URL(string: url)!)
    let before = try await fixture.nginx.accessLog(minimumCount: 1).count
    let id = try await fixture.addOne([url, "--peer", peer.link])
    let run = try await fixture.offline(["run", "--quiet"], timeout: 60)
    await peer.close()
    #expect(run.status == 0, "\(run.stderrText)")
    let entry = try #require(try await fixture.entry(id))
    #expect(entry.state == "downloaded")
    #expect(FileManager.default.contents(atPath: entry.path) == fixture.large)
    let after = Array(try fixture.nginx.accessLog().dropFirst(before))
    #expect(after.allSatisfy { $0.range == "bytes=0-0" && $0.bodyBytesSent <= 1 }, "\(after)")
  }

  @Test func theServiceTellsWhatItHoldsByOriginURLToItsTokenOnly() async throws {
    let setup = try GetCommandTests.Setup(size: 1 << 20)
    let peer = try await Peer()
    let url = setup.nginx.url("/file.bin")
    let id = try await peer.download(url)
    let port = peer.service.configuration.address.port
    func ask(_ origin: String, token: String?) async throws -> (Int, [String: Any]) {
      var parts = URLComponents(string: "http://127.0.0.1:\(port)/api/by-url")!
      parts.queryItems = [URLQueryItem(name: "url", value: origin)]
      var request = URLRequest(url: parts.url!)
      if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
      let (data, response) = try await URLSession.shared.data(for: request)
      let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
      return ((response as? HTTPURLResponse)?.statusCode ?? 0, object)
    }
    let (status, copy) = try await ask(url.absoluteString, token: Self.token)
    #expect(status == 200)
    #expect(copy["id"] as? String == id)
    #expect(copy["state"] as? String == "downloaded")
    #expect((copy["length"] as? NSNumber)?.intValue == setup.body.count)
    #expect(copy["sha256"] as? String == (try await TestData.sha256Hex(of: setup.body)))
    #expect(copy["contentPath"] as? String == "/content/\(id)/file.bin")
    // One 4 MiB chunk for a 1 MiB file: its hash is the file's.
    #expect((copy["chunkSize"] as? NSNumber)?.intValue == 4 << 20)
    #expect(copy["chunkSHA256"] as? [String] == [try await TestData.sha256Hex(of: setup.body)])
    #expect(try await ask(url.absoluteString, token: nil).0 == 401)
    #expect(try await ask(setup.nginx.url("/other.bin").absoluteString, token: Self.token).0 == 404)
    #expect(try await ask("ftp://example.com/x", token: Self.token).0 == 400)
    await peer.close()
  }
}
