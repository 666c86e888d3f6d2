import Foundation
import TestSupport
import TestTiming
import Testing

/// `offline get URL --mirror URL2 …` end to end against real nginx mirrors (issue 43,
/// second layer): the file comes from every source that agrees, one that disagrees is
/// named and never used, a mirror that is not http(s) is a usage error, and a kill -9
/// resumes with the mirrors.
@Suite(.ownThreads, .timed) struct GetMirrorTests {
  /// A second nginx serving `data` as `file.bin`, beside a ``GetCommandTests/Setup``.
  struct Mirror {
    let root: TemporaryDirectory
    let nginx: NginxServer

    init(_ data: Data?, options: NginxServer.Options = .init()) throws {
      root = try TemporaryDirectory(prefix: "offline-mirror")
      if let data { try data.write(to: root.file("file.bin")) }
      nginx = try NginxServer(root: root.url, options: options)
      try nginx.start()
    }

    var url: String { nginx.url("/file.bin").absoluteString }

    func bodyBytesSent() throws -> Int64 {
      try nginx.accessLog().reduce(Int64(0)) { $0 + $1.bodyBytesSent }
    }
  }

  struct Finished: Decodable {
    struct Source: Decodable {
      let url: String
      let primary: Bool
      let bytes: Int64
      let dropped: String?
    }
    let event: String
    let sha256: String?
    let sources: [Source]?
  }

  @Test func aMirrorWithAnotherLengthIsNamedAndNeverUsedAndTheRestShareTheFile() async throws {
    let size = 24 << 20
    let setup = try GetCommandTests.Setup(size: size)
    let same = try Mirror(setup.body)
    let shorter = try Mirror(setup.body.prefix(size - 1))
    defer {
      same.nginx.stop()
      shorter.nginx.stop()
    }
    let arguments =
      try await setup.verifiedGet() + ["--mirror", same.url, "--mirror", shorter.url, "--json"]
    let result = try await InProcessOffline.run(arguments, store: setup.store, in: setup.out)
    #expect(result.status == 0, "\(result.stderrText)")
    #expect(FileManager.default.contents(atPath: setup.output) == setup.body)
    let lines = result.stdoutText.split(separator: "\n").map { Data($0.utf8) }
    let dropped = lines.compactMap { try? JSONSerialization.jsonObject(with: $0) as? [String: Any] }
      .filter { $0["event"] as? String == "sourceDropped" }
    #expect(dropped.count == 1)
    #expect(dropped.first?["url"] as? String == shorter.url)
    #expect((dropped.first?["reason"] as? String)?.contains("\(size - 1)") == true)
    let finished = lines.compactMap { try? JSONDecoder().decode(Finished.self, from: $0) }
      .first { $0.event == "finished" }
    let sources = try #require(finished?.sources)
    #expect(
      sources.map(\.url) == [setup.nginx.url("/file.bin").absoluteString, same.url, shorter.url])
    #expect(sources.reduce(0) { $0 + $1.bytes } == Int64(size))
    #expect(sources[2].dropped != nil && sources[2].bytes == 0)
    #expect(try shorter.nginx.accessLog().map(\.range) == ["bytes=0-0"])
  }

  @Test func humanOutputNamesTheDroppedMirror() async throws {
    let setup = try GetCommandTests.Setup(size: 12 << 20)
    let missing = try Mirror(nil)
    defer { missing.nginx.stop() }
    let result = try await InProcessOffline.run(
      try await setup.verifiedGet() + ["--mirror", missing.url], store: setup.store,
      in: setup.out)
    #expect(result.status == 0, "\(result.stderrText)")
    #expect(result.stderrText.contains("Not using the mirror \(missing.url)"))
    #expect(result.stderrText.contains("HTTP 404"))
  }

  @Test(arguments: ["ftp://127.0.0.1/file.bin", "file:///etc/passwd", "not a url"])
  func aMirrorThatIsNotHTTPIsAUsageErrorNamingItAndNothingIsWritten(mirror: String)
    async throws
  {
    let setup = try GetCommandTests.Setup(size: 1 << 20)
    let result = try await InProcessOffline.run(
      try await setup.verifiedGet() + ["--mirror", mirror], store: setup.store, in: setup.out)
    #expect(result.status == 64)
    #expect(result.stderrText.contains("--mirror"), "\(result.stderrText)")
    #expect(result.stderrText.contains(mirror), "\(result.stderrText)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: setup.out.path).isEmpty)
    #expect(try setup.nginx.accessLog().isEmpty)
  }

  /// Killed with SIGKILL while a slow primary and a mirror share the file: the rerun goes
  /// on from the ranges on disk, with the mirror, and the file is right.
  @Test func aKilledGetWithAMirrorResumesAndTheFileIsRight() async throws {
    let size = 64 << 20
    let setup = try GetCommandTests.Setup(size: size, options: .init(limitRate: "1m"))
    let mirror = try Mirror(setup.body, options: .init(limitRate: "1m"))
    defer { mirror.nginx.stop() }
    let arguments = try await setup.verifiedGet() + ["--mirror", mirror.url, "--quiet"]
    let kills = try await OfflineBinary.killRepeatedly(
      arguments, store: setup.store, times: 4, pause: 400_000...800_000)
    #expect(kills >= 3)
    let last = try await OfflineBinary.run(["--store", setup.store.path] + arguments, timeout: 120)
    #expect(last.status == 0, "\(last.stderrText)")
    #expect(FileManager.default.contents(atPath: setup.output) == setup.body)
    let sent = try await setup.bodyBytesSent() + mirror.bodyBytesSent()
    #expect(sent - Int64(size) < Int64(size) / 4, "fetched \(sent - Int64(size)) bytes twice")
    #expect(try mirror.bodyBytesSent() > 0, "the mirror served ranges")
  }
}
