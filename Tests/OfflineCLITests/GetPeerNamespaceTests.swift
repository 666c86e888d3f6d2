import Foundation
import TestSupport
import TestTiming
import Testing

/// `--peer` across two machines (issue 43, item 4 and its last judging bullet). Machine A is
/// this host: nginx as the origin and a spawned `offline serve`, both on A's end of a veth
/// pair, the file downloaded by A's queue. Machine B is a network namespace whose spawned
/// `offline get URL --peer http://A:port/?token=…` takes the file from A: the origin's
/// access log shows no request for the file's bytes (its one-byte probe at most), and the
/// file's SHA-256 is right. When A's copy was changed on disk after its download, the
/// changed piece is caught against A's recorded chunk hashes and fetched from the origin,
/// and the `finished` event names A as a source that served a bad piece.
///
/// Needs root and iproute2 (`NetworkNamespace.isSupported`); without them the suite is
/// skipped with that reason.
@Suite(
  .ownThreads, .timed,
  .enabled(
    if: NetworkNamespace.isSupported,
    "needs root and iproute2 to create a network namespace as the second machine"))
struct GetPeerNamespaceTests {
  static let token = "netns-peer-token-0123456789"
  static let size = 16 << 20
  static let chunk = 4 << 20

  /// Both machines, with A serving the downloaded file; `remove()` ends every process.
  final class Machines {
    let namespace: NetworkNamespace
    let folder: TemporaryDirectory
    let body: Data
    let nginx: NginxServer
    let serve: Process
    let port: Int

    init() async throws {
      let namespace = try await NetworkNamespace()
      self.namespace = namespace
      do {
        folder = try TemporaryDirectory(prefix: "offline-peer-netns")
        let www = folder.url.appending(path: "www")
        try FileManager.default.createDirectory(at: www, withIntermediateDirectories: true)
        body = TestData.bytes(count: GetPeerNamespaceTests.size, seed: 43)
        try body.write(to: www.appending(path: "file.bin"))
        nginx = try NginxServer(root: www, options: .init(listenAddress: namespace.hostAddress))
        try nginx.start()
        let storeA = folder.url.appending(path: "storeA")
        let added = try await OfflineBinary.run(
          ["--store", storeA.path, "add", nginx.url("/file.bin").absoluteString])
        guard added.status == 0 else {
          throw TestSupportError.processFailed(
            command: "offline add", status: added.status, stderr: added.stderrText)
        }
        port = try FreePort.make()
        let log = folder.url.appending(path: "serve.log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let handle = try FileHandle(forWritingTo: log)
        defer { try? handle.close() }
        serve = Process()
        serve.executableURL = URL(fileURLWithPath: OfflineBinary.path)
        serve.arguments = [
          "--store", storeA.path, "serve", "--listen", "\(namespace.hostAddress):\(port)",
          "--token", GetPeerNamespaceTests.token, "--min-free", "0",
        ]
        serve.standardOutput = handle
        serve.standardError = handle
        try serve.run()
      } catch {
        namespace.remove()
        throw error
      }
    }

    /// Ends A's service and nginx, and B's namespace with whatever runs in it.
    func remove() async {
      _ = await serve.waitBoundedAfterInterrupt()
      nginx.stop()
      namespace.remove()
    }

    /// The origin URL of the file.
    var url: URL { nginx.url("/file.bin") }

    /// A as `--peer` names it, the link `offline serve` prints.
    var link: String {
      "http://\(namespace.hostAddress):\(port)/?token=\(GetPeerNamespaceTests.token)"
    }

    /// Waits (at most 120 s, polling A's `GET /api/by-url`) until A holds the file
    /// downloaded; the answer's fields.
    func waitUntilAHoldsTheFile() async throws -> [String: Any] {
      var parts = URLComponents(string: "http://\(namespace.hostAddress):\(port)/api/by-url")!
      parts.queryItems = [URLQueryItem(name: "url", value: url.absoluteString)]
      let question = parts.url!.absoluteString
      let deadline = Date().addingTimeInterval(120)
      var last = ""
      while Date() < deadline {
        let reply = try? await Curl.fetch(
          question, ["-H", "Authorization: Bearer \(GetPeerNamespaceTests.token)", "-m", "10"])
        if reply?.status == 200, let copy = reply?.json as? [String: Any] { return copy }
        last = "\(reply?.status ?? 0) \(reply?.text ?? "")"
        try await Task.sleep(for: .milliseconds(200))
      }
      let log = (try? String(contentsOf: folder.url.appending(path: "serve.log"), encoding: .utf8))
      throw TestSupportError.unexpectedOutput(
        command: "GET \(question)", output: "\(last); serve said: \(log ?? "")")
    }

    /// Runs B's `offline get URL --peer A --json` inside the namespace (at most 180 s).
    func getOnB() async throws -> ProcessRunner.Output {
      let launcher = namespace.launcher
      let storeB = folder.url.appending(path: "storeB")
      return try await ProcessRunner.run(
        launcher[0],
        Array(launcher.dropFirst()) + [
          OfflineBinary.path, "--store", storeB.path, "get", url.absoluteString, "-o", output.path,
          "--peer", link, "--json",
        ], timeout: 180)
    }

    /// Where B writes the file.
    var output: URL { folder.url.appending(path: "out-b.bin") }

    /// A's copy of the file in its store.
    func fileOnA() throws -> URL {
      let store = folder.url.appending(path: "storeA")
      let walker = FileManager.default.enumerator(at: store, includingPropertiesForKeys: nil)
      while let next = walker?.nextObject() as? URL {
        if next.lastPathComponent == "file.bin",
          (try? next.resourceValues(forKeys: [.fileSizeKey]))?.fileSize == body.count
        {
          return next
        }
      }
      throw TestSupportError.unexpectedOutput(command: "find storeA", output: "no file.bin")
    }
  }

  /// The events B printed, one JSON object a line.
  static func events(_ output: ProcessRunner.Output) -> [[String: Any]] {
    OfflineRun(output).jsonEvents
  }

  /// The sources of B's `finished` event.
  static func sources(_ output: ProcessRunner.Output) throws -> [[String: Any]] {
    let finished = events(output).first { $0["event"] as? String == "finished" }
    return try #require(finished?["sources"] as? [[String: Any]], "\(output.stdoutText)")
  }

  @Test func aSecondMachineTakesTheFileFromThePeerAndTheOriginSendsNoneOfItsBytes()
    async throws
  {
    let machines = try await Machines()
    do {
      let copy = try await machines.waitUntilAHoldsTheFile()
      #expect(copy["chunkSHA256"] as? [String] != nil, "\(copy)")
      let before = try await machines.nginx.accessLog(minimumCount: 1).count
      let run = try await machines.getOnB()
      #expect(run.status == 0, "\(run.stderrText)")
      let sha = try await TestData.sha256Hex(of: machines.body)
      #expect(try await TestData.sha256Hex(of: machines.output) == sha)
      let after = Array(try machines.nginx.accessLog().dropFirst(before))
      #expect(after.allSatisfy { $0.range == "bytes=0-0" && $0.bodyBytesSent <= 1 }, "\(after)")
      let sources = try Self.sources(run)
      let peer = try #require(sources.last)
      #expect((peer["url"] as? String)?.contains(machines.namespace.hostAddress) == true)
      #expect((peer["url"] as? String)?.contains(Self.token) == false)
      #expect((peer["bytes"] as? NSNumber)?.intValue == Self.size)
    } catch {
      await machines.remove()
      throw error
    }
    await machines.remove()
  }

  @Test func aPieceChangedOnThePeerIsCaughtAndFetchedFromTheOrigin() async throws {
    let machines = try await Machines()
    do {
      _ = try await machines.waitUntilAHoldsTheFile()
      // One chunk of A's copy changed after its download, in place: same length.
      let handle = try FileHandle(forWritingTo: try machines.fileOnA())
      try handle.seek(toOffset: UInt64(Self.chunk + 1000))
      try handle.write(contentsOf: Data(repeating: 0x5A, count: 4096))
      try handle.close()
      let before = try await machines.nginx.accessLog(minimumCount: 1).count
      let run = try await machines.getOnB()
      #expect(run.status == 0, "\(run.stderrText)")
      let sha = try await TestData.sha256Hex(of: machines.body)
      #expect(try await TestData.sha256Hex(of: machines.output) == sha)
      let refetched = Self.events(run).filter { $0["event"] as? String == "refetchingPieces" }
        .flatMap { ($0["pieces"] as? [Int]) ?? [] }
      #expect(refetched == [1], "\(run.stdoutText)")
      let peer = try #require(try Self.sources(run).last)
      #expect((peer["url"] as? String)?.contains(machines.namespace.hostAddress) == true)
      #expect((peer["badPieces"] as? NSNumber)?.intValue == 1, "\(peer)")
      // The changed piece came from the origin, whole.
      let after = Array(try machines.nginx.accessLog().dropFirst(before))
      let served = after.filter { $0.status == 206 }.compactMap { Self.bytes(of: $0.range) }
      let piece = Int64(Self.chunk)..<Int64(2 * Self.chunk)
      #expect(Self.covers(served, piece), "\(after)")
    } catch {
      await machines.remove()
      throw error
    }
    await machines.remove()
  }

  /// The bytes `bytes=a-b` asks for.
  static func bytes(of range: String?) -> Range<Int64>? {
    guard let range, range.hasPrefix("bytes=") else { return nil }
    let ends = range.dropFirst(6).split(separator: "-")
    guard ends.count == 2, let first = Int64(ends[0]), let last = Int64(ends[1]) else {
      return nil
    }
    return first..<(last + 1)
  }

  /// Whether `ranges` together cover every byte of `piece`.
  static func covers(_ ranges: [Range<Int64>], _ piece: Range<Int64>) -> Bool {
    var next = piece.lowerBound
    for range in ranges.sorted(by: { $0.lowerBound < $1.lowerBound })
    where range.lowerBound <= next && range.upperBound > next {
      next = range.upperBound
    }
    return next >= piece.upperBound
  }
}

extension Process {
  /// Sends SIGINT and waits at most 20 s (then SIGKILL, and 5 s more), polling with
  /// `Task.sleep`; the exit status.
  fileprivate func waitBoundedAfterInterrupt() async -> Int32 {
    if isRunning { kill(processIdentifier, SIGINT) }
    return await waitBounded(seconds: 20)
  }
}
