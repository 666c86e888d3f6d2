import Foundation
import OfflineKit
import TestSupport
import TestTiming
import Testing

/// `--peer` when the origin cannot serve the file in ranges (issue 43, item 4): refused,
/// answering 5xx, or ignoring ranges. A peer that holds the file serves it whole, checked
/// against the length and SHA-256 of the peer's own record, and the output says so; with no
/// peer that holds it, or one whose copy is not the file asked for, the origin's own answer
/// stands.
@Suite(.ownThreads, .timed) struct GetPeerFallbackTests {
  /// `get` of the served file to `setup.output` through `peer`, without `--sha256`: only the
  /// peer's record can check it.
  static func get(_ setup: GetCommandTests.Setup, peer: String, _ extra: [String] = [])
    -> [String]
  {
    ["get", setup.nginx.url("/file.bin").absoluteString, "-o", setup.output, "--peer", peer]
      + extra
  }

  static let checkedByPeer = "checked against the length and SHA-256 of the peer's own record"

  @Test func aPeerServesTheWholeFileWhenTheOriginRefusesConnections() async throws {
    let setup = try GetCommandTests.Setup(size: 6 << 20)
    let peer = try await GetPeerTests.Peer.holding(setup)
    setup.nginx.stop()
    let result = try await peer.serving(Self.get(setup, peer: peer.link, ["--json"]), for: setup)
    setup.expectWholeFile(result)
    let instead = try #require(result.jsonEvents(named: "peerInsteadOfOrigin").first)
    #expect((instead["reason"] as? String)?.contains("could not be reached") == true)
    #expect(instead["checkedAgainst"] as? String == "peer")
    #expect((instead["url"] as? String)?.contains(GetPeerTests.token) == false)
    let finished = try #require(result.jsonEvents(named: "finished").first)
    #expect(finished["check"] as? String == "sha256")
    #expect(finished["sha256"] as? String == (try await TestData.sha256Hex(of: setup.body)))
    let sources = try #require(finished["sources"] as? [[String: Any]])
    #expect(sources.count == 2)
    #expect((sources.last?["bytes"] as? NSNumber)?.intValue == setup.body.count)
  }

  @Test func aPeerServesTheWholeFileWhenTheOriginAnswers503AndTheOutputSaysWhoChecked()
    async throws
  {
    let setup = try GetCommandTests.Setup(
      size: 6 << 20,
      options: .init(
        extraLocations: "location = /file.bin { if (-f $document_root/down) { return 503; } }"))
    let peer = try await GetPeerTests.Peer.holding(setup)
    try Data().write(to: setup.www.appending(path: "down"))
    let before = try await setup.nginx.accessLog(minimumCount: 1).count
    let result = try await peer.serving(Self.get(setup, peer: peer.link), for: setup)
    setup.expectWholeFile(result)
    #expect(result.stderrText.contains("it answered HTTP 503"), "\(result.stderrText)")
    #expect(result.stderrText.contains(Self.checkedByPeer), "\(result.stderrText)")
    #expect(result.stderrText.contains("since the origin could not confirm them"))
    #expect(!result.stderrText.contains(GetPeerTests.token))
    let after = Array(try setup.nginx.accessLog().dropFirst(before))
    #expect(after.allSatisfy { $0.status == 503 }, "\(after)")
  }

  @Test func aPeerServesTheWholeFileWhenTheOriginIgnoresRanges() async throws {
    let setup = try GetCommandTests.Setup(size: 12 << 20, options: .init(maxRanges: 0))
    let peer = try await GetPeerTests.Peer.holding(setup)
    let before = try await setup.nginx.accessLog(minimumCount: 1).count
    let result = try await peer.serving(Self.get(setup, peer: peer.link, ["--json"]), for: setup)
    setup.expectWholeFile(result)
    let instead = try #require(result.jsonEvents(named: "peerInsteadOfOrigin").first)
    #expect((instead["reason"] as? String)?.contains("does not serve ranges") == true)
    let finished = try #require(result.jsonEvents(named: "finished").first)
    let sources = try #require(finished["sources"] as? [[String: Any]])
    #expect((sources.last?["bytes"] as? NSNumber)?.intValue == setup.body.count)
    #expect((sources.first?["bytes"] as? NSNumber)?.intValue == 0)
    // The origin was asked once, for its first byte; its answer was not read on.
    #expect(try setup.nginx.accessLog().dropFirst(before).count == 1)
  }

  @Test func withNoPeerHoldingTheFileTheOriginsRefusalStands() async throws {
    let setup = try GetCommandTests.Setup(size: 1 << 20)
    let peer = try await GetPeerTests.Peer()
    setup.nginx.stop()
    let result = try await peer.serving(
      Self.get(setup, peer: peer.link, ["--retries", "1"]), for: setup)
    #expect(result.status == 1, "\(result.stderrText)")
    #expect(result.stderrText.contains("Error:"), "\(result.stderrText)")
    #expect(!result.stderrText.contains(Self.checkedByPeer), "\(result.stderrText)")
    #expect(!FileManager.default.fileExists(atPath: setup.output))
  }

  @Test func aPeerCopyOtherThanTheGivenSHA256IsNamedAndTheOriginsRefusalStands() async throws {
    let setup = try GetCommandTests.Setup(size: 1 << 20)
    let peer = try await GetPeerTests.Peer.holding(setup)
    setup.nginx.stop()
    let other = String(repeating: "ab", count: 32)
    let result = try await peer.serving(
      Self.get(setup, peer: peer.link, ["--sha256", other, "--retries", "1"]), for: setup)
    #expect(result.status == 1, "\(result.stderrText)")
    #expect(result.stderrText.contains("Not using the mirror"), "\(result.stderrText)")
    #expect(result.stderrText.contains("not \(other)"), "\(result.stderrText)")
    #expect(!result.stderrText.contains(Self.checkedByPeer), "\(result.stderrText)")
    #expect(!FileManager.default.fileExists(atPath: setup.output))
  }
}
