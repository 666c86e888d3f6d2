import Foundation
import TestSupport
import TestTiming
import Testing

/// Many devices behind one caching proxy (issue 43): the nginx configuration of
/// `docs/CachingProxy.md`, read from the page itself, in front of an nginx origin; the same
/// file downloaded twice over several connections into two stores (two devices) comes the
/// second time from the proxy's cache alone, by the origin's log.
@Suite(.ownThreads, .timed) struct CachingProxyTests {
  static let size = 24 << 20

  /// The ```nginx blocks of `docs/CachingProxy.md`, in order.
  static func documentedBlocks() throws -> [String] {
    let page = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
      .appending(path: "docs/CachingProxy.md")
    let text = try String(contentsOf: page, encoding: .utf8)
    return text.components(separatedBy: "```nginx\n").dropFirst().compactMap {
      $0.components(separatedBy: "```").first
    }
  }

  /// The documented proxy in front of `origin`, caching in `cache`, logging the request
  /// fields that could tell a cache not to use what it has.
  static func proxy(origin: NginxServer, cache: URL, root: URL) throws -> NginxServer {
    let blocks = try documentedBlocks()
    try #require(blocks.count == 2, "the page gives the http line and the location")
    let http = blocks[0].replacingOccurrences(of: "/var/cache/nginx/offline", with: cache.path)
    let base = origin.baseURL.absoluteString
    let location = blocks[1].replacingOccurrences(
      of: "http://origin.example", with: base.hasSuffix("/") ? String(base.dropLast()) : base)
    let server = try NginxServer(
      root: root,
      options: .init(
        extraLocations: location, httpConfiguration: http,
        loggedHeaders: ["Cache-Control", "Pragma"]))
    try server.start()
    return server
  }

  @Test func theSecondDeviceGetsTheFileFromTheCacheAlone() async throws {
    let body = TestData.bytes(count: Self.size, seed: 4344)
    let origin = try GetMirrorTests.Mirror(body)
    let folder = try TemporaryDirectory()
    let cache = folder.url.appending(path: "cache")
    try FileManager.default.createDirectory(at: cache, withIntermediateDirectories: true)
    let proxy = try Self.proxy(
      origin: origin.nginx, cache: cache, root: folder.url)
    defer { for server in [origin.nginx, proxy] { server.stop() } }
    let sha = try await TestData.sha256Hex(of: body)

    var sentByOrigin: [Int] = []
    for device in ["first", "second"] {
      let out = folder.url.appending(path: device)
      try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
      let result = try await InProcessOffline.run(
        [
          "get", proxy.url("/file.bin").absoluteString, "--connections", "4", "--sha256", sha,
          "--quiet",
        ], store: out.appending(path: "store"), in: out, timeout: 120)
      #expect(result.status == 0, "\(device): \(result.stderrText)")
      #expect(FileManager.default.contents(atPath: out.appending(path: "file.bin").path) == body)
      sentByOrigin.append(try origin.nginx.accessLog().count)
    }
    let bytes = try origin.bodyBytesSent()
    // The first device filled the cache (each slice fetched once: the lock holds the
    // connections that ask for one at once); the second sent no request to the origin.
    #expect(bytes <= Int64(Self.size) + Int64(Self.size) / 20, "the origin sent \(bytes)")
    #expect(sentByOrigin.count == 2 && sentByOrigin[0] > 0)
    let late = try origin.nginx.accessLog().map {
      "\($0.method) \($0.uri) \($0.range ?? "-") \($0.status) \($0.bodyBytesSent)"
    }
    #expect(sentByOrigin.last == sentByOrigin.first, "\(sentByOrigin) \(late)")
    // The proxy served both devices, its repeats from the cache, and was never told not to.
    let asked = try proxy.headerLog()
    #expect(asked.count > 4)
    #expect(asked.allSatisfy { $0["Cache-Control"] == nil && $0["Pragma"] == nil })
  }

  /// Two devices that start together (issue 43's ten clients at once, in small): the origin
  /// sends each slice once, whichever device's connection asked for it first; the other
  /// waits on the proxy's cache lock instead of going to the origin too.
  @Test func twoDevicesStartingTogetherCostTheOriginEachSliceOnce() async throws {
    let body = TestData.bytes(count: Self.size, seed: 4345)
    let origin = try GetMirrorTests.Mirror(body)
    let folder = try TemporaryDirectory()
    let cache = folder.url.appending(path: "cache")
    try FileManager.default.createDirectory(at: cache, withIntermediateDirectories: true)
    let proxy = try Self.proxy(origin: origin.nginx, cache: cache, root: folder.url)
    defer { for server in [origin.nginx, proxy] { server.stop() } }
    let sha = try await TestData.sha256Hex(of: body)
    let url = proxy.url("/file.bin").absoluteString

    let statuses = try await withThrowingTaskGroup(of: (String, Int32, String).self) { group in
      for device in ["first", "second"] {
        let out = folder.url.appending(path: device)
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        group.addTask {
          let result = try await InProcessOffline.run(
            ["get", url, "--connections", "4", "--sha256", sha, "--quiet"],
            store: out.appending(path: "store"), in: out, timeout: 120)
          return (device, result.status, result.stderrText)
        }
      }
      return try await group.reduce(into: []) { $0.append($1) }
    }
    for (device, status, stderr) in statuses { #expect(status == 0, "\(device): \(stderr)") }
    for device in ["first", "second"] {
      let copy = folder.url.appending(path: "\(device)/file.bin")
      #expect(FileManager.default.contents(atPath: copy.path) == body, "\(device)")
    }
    // Each slice once; the slack is one slice (a request that waited out the lock's 5 s on a
    // loaded machine goes to the origin itself). Without the lock the origin sends about
    // twice the file, nearly every slice twice.
    let asked = try origin.nginx.accessLog().map { $0.range ?? "-" }
    let bytes = try origin.bodyBytesSent()
    #expect(bytes <= Int64(Self.size + (1 << 20)), "the origin sent \(bytes): \(asked)")
    #expect(asked.count - Set(asked).count <= 1, "slices asked twice: \(asked)")
    #expect(Set(asked).count == Self.size >> 20, "one request a 1 MiB slice: \(asked)")
  }
}
