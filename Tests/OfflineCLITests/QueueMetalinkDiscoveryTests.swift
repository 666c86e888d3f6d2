import Foundation
import TestSupport
import TestTiming
import Testing

/// A plain `add URL` whose origin answers with a Metalink (issue 43): the queue meets it at
/// the file's first answer, as `get` does, and the content becomes the file it describes (its
/// name, its URLs as sources, its checks kept in the store) instead of a failed download.
@Suite(.ownThreads, .timed) struct QueueMetalinkDiscoveryTests {
  typealias Mirror = GetMirrorTests.Mirror
  typealias Origin = GetMetalinkDiscoveryTests

  /// `add URL` then `run` in a fresh store; the listed content.
  static func addAndRun(_ url: String, in folder: TemporaryDirectory) async throws
    -> ListedContent?
  {
    let store = folder.url.appending(path: "store")
    let added = try await InProcessOffline.run(["add", url], store: store, in: folder.url)
    #expect(added.status == 0, "\(added.stderrText)")
    let id = added.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
    let run = try await InProcessOffline.run(
      ["run", "--quiet"], store: store, in: folder.url, timeout: 120)
    #expect(run.status == 0, "\(run.stderrText)")
    let listed = try await InProcessOffline.run(["ls", "--json"], store: store, in: folder.url)
    let array = try JSONSerialization.jsonObject(with: listed.stdout) as? [[String: Any]]
    return array?.map(ListedContent.init).first { $0.id == id }
  }

  @Test(arguments: ["application/metalink4+xml", "application/metalink+xml"])
  func aQueuedURLAnsweredWithAMetalinkBecomesItsFile(mediaType: String) async throws {
    let origin = try Origin.origin(GetMetalinkTests.body, mediaType: mediaType)
    let mirror = try Mirror(GetMetalinkTests.body)
    defer { for server in [origin, mirror] { server.nginx.stop() } }
    try Data(
      try await GetMetalinkTests.meta4(name: "named.img", urls: [origin.url, mirror.url]).utf8
    ).write(to: origin.root.file("latest"))
    let folder = try TemporaryDirectory()
    let entry = try #require(
      try await Self.addAndRun(origin.nginx.url("/latest").absoluteString, in: folder))
    #expect(entry.state == "downloaded", "\(entry.lastError ?? "")")
    #expect(entry.url == origin.url)
    #expect((entry.path as NSString).lastPathComponent == "named.img")
    #expect(FileManager.default.contents(atPath: entry.path) == GetMetalinkTests.body)
    // The Metalink was asked for once: its one answer, then its document.
    let latest = try origin.nginx.accessLog().filter { $0.uri == "/latest" }
    #expect(latest.count == 2, "\(latest)")
    // Its other URL was kept as a mirror: probed, then asked for ranges.
    #expect(try mirror.nginx.accessLog().first?.range == "bytes=0-0")
  }

  /// The file's own URL links its Metalink: its piece hashes are kept, so a piece the origin
  /// serves wrong is fetched again from the Metalink's other URL and the file is right.
  @Test func aQueuedFileWhoseAnswerLinksItsMetalinkIsCheckedByPiece() async throws {
    let origin = try Origin.origin(GetMetalinkTests.corrupted)
    let mirror = try Mirror(GetMetalinkTests.body)
    defer { for server in [origin, mirror] { server.nginx.stop() } }
    try Data(
      try await GetMetalinkTests.meta4(name: "disk.img", urls: [origin.url, mirror.url]).utf8
    ).write(to: origin.root.file("file.bin.meta4"))
    let folder = try TemporaryDirectory()
    let entry = try #require(try await Self.addAndRun(origin.url, in: folder))
    #expect(entry.state == "downloaded", "\(entry.lastError ?? "")")
    #expect((entry.path as NSString).lastPathComponent == "disk.img")
    #expect(FileManager.default.contents(atPath: entry.path) == GetMetalinkTests.body)
    let piece = GetMetalinkTests.badPiece * GetMetalinkTests.pieceLength
    let range = piece..<(piece + GetMetalinkTests.pieceLength)
    #expect(
      GetMetalinkTests.asked(try mirror.nginx.accessLog(), within: range)
        == IndexSet(integersIn: range))
  }
}
