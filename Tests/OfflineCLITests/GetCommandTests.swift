import Foundation
import TestSupport
import TestTiming
import Testing

/// `offline get` end to end against nginx and our fault server.
@Suite(.ownThreads, .timed) struct GetCommandTests {
  struct Setup {
    let folder: TemporaryDirectory
    let www: URL
    let nginx: NginxServer
    let body: Data
    var store: URL { folder.url.appending(path: "store") }
    var out: URL { folder.url.appending(path: "out") }

    init(size: Int = 4 << 20, options: NginxServer.Options = .init()) throws {
      folder = try TemporaryDirectory()
      www = folder.url.appending(path: "www")
      try FileManager.default.createDirectory(at: www, withIntermediateDirectories: true)
      body = TestData.bytes(count: size, seed: 11)
      try body.write(to: www.appending(path: "file.bin"))
      try FileManager.default.createDirectory(
        at: folder.url.appending(path: "out"), withIntermediateDirectories: true)
      nginx = try NginxServer(root: www, options: options)
      try nginx.start()
    }

    /// Where `verifiedGet` writes the file: `out/file.bin`.
    var output: String { out.appending(path: "file.bin").path }

    /// `get` of the served file to `output`, checked against the body's SHA-256: the command
    /// the crash tests kill and run again.
    func verifiedGet() async throws -> [String] {
      let sha = try await TestData.sha256Hex(of: body)
      return ["get", nginx.url("/file.bin").absoluteString, "-o", output, "--sha256", sha]
    }

    /// The body bytes nginx has sent over all requests so far.
    func bodyBytesSent() async throws -> Int64 {
      try await nginx.accessLog(minimumCount: 1).reduce(Int64(0)) { $0 + $1.bodyBytesSent }
    }
  }

  @Test func downloadsIntoTheCurrentFolderByDefaultAndSaysSoOnARerun() async throws {
    let setup = try Setup()
    let sha = try await TestData.sha256Hex(of: setup.body)
    let url = setup.nginx.url("/file.bin").absoluteString
    let first = try await InProcessOffline.run(
      ["get", url, "--sha256", sha], store: setup.store, in: setup.out)
    #expect(first.status == 0, "\(first.stderrText)")
    #expect(
      FileManager.default.contents(atPath: setup.out.appending(path: "file.bin").path) == setup.body
    )

    let second = try await InProcessOffline.run(
      ["get", url, "--sha256", sha], store: setup.store, in: setup.out)
    #expect(second.status == 0)
    #expect(second.stderrText.contains("Already complete"))
    #expect(second.stderrText.contains("unchanged on disk since its download"))
    #expect(try await setup.nginx.accessLog(minimumCount: 1).count == 1)
  }

  @Test func jsonPrintsOneObjectPerEvent() async throws {
    let setup = try Setup()
    let url = setup.nginx.url("/file.bin").absoluteString
    let result = try await InProcessOffline.run([
      "--store", setup.store.path, "get", url, "-o", setup.out.path + "/", "--json",
    ])
    #expect(result.status == 0)
    let objects = try result.stdoutText.split(separator: "\n").map {
      try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] ?? [:]
    }
    let names = objects.compactMap { $0["event"] as? String }
    #expect(names.first == "requesting")
    #expect(names.last == "finished")
    #expect(names.contains("progress"))
    #expect(objects.last?["bytes"] as? Int == setup.body.count)
  }

  @Test func aWrongChecksumExits1AndKeepsNothingAsComplete() async throws {
    let setup = try Setup()
    let url = setup.nginx.url("/file.bin").absoluteString
    let result = try await InProcessOffline.run([
      "--store", setup.store.path, "get", url, "-o", setup.out.path + "/x.bin",
      "--sha256", String(repeating: "ab", count: 32),
    ])
    #expect(result.status == 1)
    #expect(result.stderrText.contains("Error: "))
    #expect(result.stderrText.contains("SHA-256"))
    #expect(!FileManager.default.fileExists(atPath: setup.out.appending(path: "x.bin").path))
  }

  @Test func aRedirectToANonHTTPSchemeIsRefused() async throws {
    let setup = try Setup(
      options: .init(extraLocations: "location = /go { return 301 file:///etc/passwd; }"))
    let result = try await InProcessOffline.run([
      "--store", setup.store.path, "get", setup.nginx.url("/go").absoluteString, "-o",
      setup.out.path + "/",
    ])
    #expect(result.status == 1)
    #expect(result.stderrText.contains("Refused to follow a redirect"))
    #expect(try FileManager.default.contentsOfDirectory(atPath: setup.out.path).isEmpty)
  }

  @Test func aHostileNameInTheURLStaysInsideTheOutputFolder() async throws {
    let server = try FaultServer()
    let path = "/%2e%2e%2f%2e%2e%2fescaped.txt"
    server.setRoute(path, .resource(.init(body: Data("payload".utf8))))
    let folder = try TemporaryDirectory()
    let out = folder.url.appending(path: "a/b/out")
    try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
    let result = try await InProcessOffline.run([
      "--store", folder.url.appending(path: "store").path, "get", server.url(path).absoluteString,
      "-o", out.path + "/",
    ])
    #expect(result.status == 0, "\(result.stderrText)")
    let names = try FileManager.default.contentsOfDirectory(atPath: out.path)
    #expect(names.count == 1)
    #expect(names.allSatisfy { !$0.contains("/") && $0 != ".." })
    #expect(
      !FileManager.default.fileExists(atPath: folder.url.appending(path: "a/escaped.txt").path))
    #expect(!FileManager.default.fileExists(atPath: folder.url.appending(path: "escaped.txt").path))
  }
}
