import Foundation
import TestSupport
import TestTiming
import Testing

/// `offline set-url` and `get --refresh-command` (issue 13, item 4), against nginx's
/// `secure_link`. Before, neither existed ("Unknown subcommand", "Unknown option"): a signed
/// URL that expired in the middle of a download could only be started over.
@Suite(.serialized, .ownThreads, .timed) struct URLRefreshCommandTests {
  /// 96 MiB, fetched over one connection at 16 MiB/s: 5 % of it (4.8 MiB) stays above what
  /// a transfer stopped for a new URL can lose on a loaded machine (the transport's queue
  /// for a lagging writer, 2 MiB, and the socket buffers); 5 % of 6 MiB (314 KB) did not.
  static let body = TestData.bytes(count: 96 << 20, seed: 59)
  static let path = "/signed/big.bin"

  struct Setup {
    let origin: SignedOrigin
    let folder: TemporaryDirectory

    init() throws {
      origin = try SignedOrigin(files: ["big.bin": URLRefreshCommandTests.body], rate: "16m")
      folder = try TemporaryDirectory()
    }

    var store: URL { folder.url.appending(path: "store", directoryHint: .isDirectory) }
    var output: String { folder.file("big.bin").path }

    func offline(_ arguments: [String]) async throws -> OfflineRun {
      try await InProcessOffline.run(["--store", store.path] + arguments, timeout: 90)
    }

    /// Bytes nginx sent beyond the file's size: fetched twice.
    func fetchedTwice() async throws -> Int64 {
      try origin.bytesSent(for: URLRefreshCommandTests.path)
        - Int64(URLRefreshCommandTests.body.count)
    }

    /// The bytes `offline ls --json` shows for content `id`.
    func listedBytes(_ id: String) async throws -> Int64 {
      let listed = try await offline(["ls", "--json"]).stdoutText
      let entries = try? JSONSerialization.jsonObject(with: Data(listed.utf8)) as? [[String: Any]]
      let entry = entries?.first { $0["id"] as? String == id }
      return (entry?["bytes"] as? NSNumber)?.int64Value ?? 0
    }
  }

  /// Waits (at most 20 s) for `condition`.
  static func eventually(_ condition: () async throws -> Bool) async rethrows -> Bool {
    let deadline = ContinuousClock.now + .seconds(20)
    while ContinuousClock.now < deadline {
      if try await condition() { return true }
      try? await Task.sleep(for: .milliseconds(50))
    }
    return try await condition()
  }

  /// Pins: `get` of a signed URL that expired between two runs failed with 410 for good;
  /// with `--refresh-command` it goes on from the URL the command prints, keeping the
  /// bytes on disk.
  @Test func getRefreshCommandGivesAFreshURLAndTheBytesOnDiskAreKept() async throws {
    let setup = try Setup()
    let expiring = try setup.origin.signedURL(Self.path, expiresIn: 2)
    // Stopped as Ctrl-C stops it, inside this process: the bytes it leaves are the point.
    let first = InProcessRun(
      ["get", expiring.absoluteString, "-o", setup.output, "--quiet", "--connections", "1"],
      store: setup.store)
    defer { first.stopIfRunning() }
    let part = setup.output + ".part"
    await #expect(
      Self.eventually {
        ((try? FileManager.default.attributesOfItem(atPath: part)[.size] as? Int) ?? 0) > 300_000
      })
    await #expect(first.stop()?.status == InProcessRun.stoppedStatus)
    while Date().timeIntervalSince1970 < Double(
      expiring.query?.split(separator: "=").last.flatMap { Double($0) } ?? 0) + 1.5
    {
      try? await Task.sleep(for: .microseconds(100_000))
    }
    let fresh = try setup.origin.signedURL(Self.path, expiresIn: 900, fullSpeed: true)
    let second = try await setup.offline([
      "get", expiring.absoluteString, "-o", setup.output, "--connections", "1",
      "--refresh-command",
      "test \"$OFFLINE_STATUS\" = 410 && printf '%s\\n' '\(fresh.absoluteString)'",
    ])
    #expect(second.status == 0, "\(second.stderrText)")
    #expect(FileManager.default.contents(atPath: setup.output) == Self.body)
    let log = try setup.origin.server.accessLog()
    #expect(log.contains { $0.status == 410 })
    #expect(log.contains { $0.uri.contains(fresh.query ?? "-") && $0.status == 206 })
    let twice = try await setup.fetchedTwice()
    #expect(twice < Int64(Self.body.count) / 20, "\(twice) bytes fetched twice")
  }

  /// A refresh command that fails, hangs or prints something that is not an http(s) URL:
  /// `get` fails saying so (exit 1), never printing what the URL's query held.
  @Test(arguments: [
    ("exit 3", "exited with status 3"),
    ("echo ftp://127.0.0.1/big.bin?token=t0ken-s3cret", "not an http or https URL"),
    ("echo", "not an http or https URL"),
  ])
  func aRefreshCommandThatGivesNoURLFailsSayingWhy(command: String, why: String) async throws {
    let setup = try Setup()
    let expired = try setup.origin.signedURL(Self.path, expiresIn: -10)
    let result = try await setup.offline([
      "get", expired.absoluteString, "-o", setup.output, "--refresh-command", command,
    ])
    #expect(result.status == 1)
    #expect(result.stderrText.contains("no fresh URL came"), "\(result.stderrText)")
    #expect(result.stderrText.contains(why), "\(result.stderrText)")
    #expect(!result.stderrText.contains("s3cret"), "\(result.stderrText)")
  }

  /// `set-url` with a URL that is not http(s) is a usage error naming the argument (64);
  /// with an unknown id, or for a downloaded content, it fails (1) saying why.
  @Test func setURLRefusesBadInput() async throws {
    let setup = try Setup()
    let usage = try await setup.offline(["set-url", "big", "ftp://127.0.0.1/big.bin"])
    #expect(usage.status == 64)
    #expect(usage.stderrText.contains("<url>"), "\(usage.stderrText)")
    let unknown = try await setup.offline(["set-url", "nope", "http://127.0.0.1/big.bin"])
    #expect(unknown.status == 1)
    #expect(unknown.stderrText.contains("No content has the id nope"), "\(unknown.stderrText)")
  }
}
