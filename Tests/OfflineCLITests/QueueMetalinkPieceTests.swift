import Foundation
import TestSupport
import TestTiming
import Testing

/// `offline add URL.meta4` keeps what `get` uses (issue 43): the Metalink's piece hashes,
/// size and file name are kept in the store, so a later `offline run` (another process)
/// checks each piece as it lands, fetches a bad one again alone from another source, saves
/// the file under the Metalink's name inside the content's folder, and does so after a kill.
@Suite(.ownThreads, .timed) struct QueueMetalinkPieceTests {
  typealias Mirror = GetMirrorTests.Mirror

  /// The file's bytes each of `entries` sent within `bounds` (whole ranges asked).
  static func asked(_ entries: [AccessLogEntry], within bounds: Range<Int>) -> IndexSet {
    GetMetalinkTests.asked(entries.filter { $0.status == 206 }, within: bounds)
  }

  static var badPiece: Range<Int> {
    let start = GetMetalinkTests.badPiece * GetMetalinkTests.pieceLength
    return start..<(start + GetMetalinkTests.pieceLength)
  }

  @Test func aQueuedMetalinkChecksEachPieceAndFetchesABadOneAgainAloneUnderItsName()
    async throws
  {
    let corrupt = try Mirror(GetMetalinkTests.corrupted)
    let good = try Mirror(GetMetalinkTests.body, options: .init(limitRate: "4m"))
    defer { for server in [corrupt, good] { server.nginx.stop() } }
    let fixture = try QueueFixture()
    let meta4 = try QueueMetalinkTests.serve(
      try await GetMetalinkTests.meta4(name: "disk.img", urls: [corrupt.url, good.url]),
      in: fixture)
    let id = try await fixture.addOne([meta4])
    let run = try await fixture.offline(["run", "--quiet"], timeout: 120)
    #expect(run.status == 0, "\(run.stderrText)")
    let entry = try #require(try await fixture.entry(id))
    #expect(entry.state == "downloaded")
    #expect((entry.path as NSString).lastPathComponent == "disk.img")
    #expect(entry.path.hasPrefix(fixture.store.path))
    #expect(FileManager.default.contents(atPath: entry.path) == GetMetalinkTests.body)
    // The bad piece came from the good mirror, whole.
    #expect(
      Self.asked(try good.nginx.accessLog(), within: Self.badPiece)
        == IndexSet(integersIn: Self.badPiece))

    // What each source served is kept and shown: `info --json`, `ls --json`, `info`, `ls`.
    let info = try await fixture.offline(["info", id, "--json"])
    let object = try #require(
      try JSONSerialization.jsonObject(with: info.stdout) as? [String: Any])
    let sources = try #require(object["sources"] as? [[String: Any]], "\(info.stdoutText)")
    #expect(sources.map { $0["url"] as? String } == [corrupt.url, good.url])
    #expect(sources.map { $0["primary"] as? Bool } == [true, false])
    #expect(sources.first?["badPieces"] as? Int == 1)
    #expect(sources.allSatisfy { ($0["bytes"] as? Int ?? 0) > 0 })
    let served = sources.reduce(0) { $0 + ($1["bytes"] as? Int ?? 0) }
    #expect(served >= GetMetalinkTests.size + GetMetalinkTests.pieceLength)
    #expect(try await fixture.entry(id)?.object["sources"] != nil)
    let text = try await fixture.offline(["info", id]).stdoutText
    #expect(text.contains("Source: "), "\(text)")
    #expect(text.contains("1 bad piece fetched again"), "\(text)")
    let listed = try await fixture.offline(["ls"]).stdoutText
    #expect(listed.contains("    source: "), "\(listed)")
  }

  /// A source dropped (a mirror with another length) is kept with its reason.
  @Test func aDroppedSourceIsShownWithItsReason() async throws {
    let origin = try Mirror(GetMetalinkTests.body)
    let shorter = try Mirror(GetMetalinkTests.body.prefix(GetMetalinkTests.size - 1))
    defer { for server in [origin, shorter] { server.nginx.stop() } }
    let fixture = try QueueFixture()
    let id = try await fixture.addOne([origin.url, "--mirror", shorter.url])
    let run = try await fixture.offline(["run", "--quiet"], timeout: 120)
    #expect(run.status == 0, "\(run.stderrText)")
    let entry = try #require(try await fixture.entry(id))
    let sources = try #require(entry.object["sources"] as? [[String: Any]])
    #expect(sources.count == 2)
    let dropped = sources.last?["dropped"] as? String
    #expect(dropped?.contains("length") == true, "\(sources)")
    let text = try await fixture.offline(["info", id]).stdoutText
    #expect(text.contains("dropped: "), "\(text)")
  }

  /// A Metalink naming its file with folders is saved under its last name, inside the
  /// content's folder; one naming a file outside it is refused and nothing is queued.
  @Test func aQueuedMetalinksNameNeverLeavesTheContentFolder() async throws {
    let origin = try Mirror(GetMetalinkTests.body)
    defer { origin.nginx.stop() }
    let fixture = try QueueFixture()
    let nested = try QueueMetalinkTests.serve(
      try await GetMetalinkTests.meta4(name: "pub/iso/disk.img", urls: [origin.url]), in: fixture)
    let id = try await fixture.addOne([nested])
    let run = try await fixture.offline(["run", "--quiet"], timeout: 120)
    #expect(run.status == 0, "\(run.stderrText)")
    let entry = try #require(try await fixture.entry(id))
    #expect((entry.path as NSString).lastPathComponent == "disk.img")
    #expect(FileManager.default.contents(atPath: entry.path) == GetMetalinkTests.body)

    let evil = try QueueMetalinkTests.serve(
      try await GetMetalinkTests.meta4(name: "../evil.img", urls: [origin.url]), in: fixture)
    let refused = try await fixture.offline(["add", evil])
    #expect(refused.status == 1)
    #expect(refused.stderrText.contains("cannot be downloaded"), "\(refused.stderrText)")
    #expect(try await fixture.list().map(\.id) == [id])
  }

  /// `offline run` killed with SIGKILL while a corrupting primary and a good mirror serve
  /// the queued Metalink: every rerun goes on with the kept checks, the file is right, and
  /// little is fetched twice (the bad piece, and what a kill cut).
  /// Both at 256 KiB/s per connection: at 512 KiB/s, once the corrupting source no longer
  /// rested after its bad piece, a run could finish before its second kill.
  @Test func aKilledQueuedMetalinkRunResumesWithItsChecks() async throws {
    let corrupt = try Mirror(GetMetalinkTests.corrupted, options: .init(limitRate: "256k"))
    let good = try Mirror(GetMetalinkTests.body, options: .init(limitRate: "256k"))
    defer { for server in [corrupt, good] { server.nginx.stop() } }
    let fixture = try QueueFixture()
    let meta4 = try QueueMetalinkTests.serve(
      try await GetMetalinkTests.meta4(name: "disk.img", urls: [corrupt.url, good.url]),
      in: fixture)
    let id = try await fixture.addOne([meta4])
    let kills = try await OfflineBinary.killRepeatedly(
      ["run", "--quiet"], store: fixture.store, times: 3, pause: 1_000_000...2_000_000)
    #expect(kills >= 2)
    let last = try await fixture.offline(["run", "--quiet"], timeout: 120)
    #expect(last.status == 0, "\(last.stderrText)")
    let entry = try #require(try await fixture.entry(id))
    #expect(entry.state == "downloaded")
    #expect(FileManager.default.contents(atPath: entry.path) == GetMetalinkTests.body)
    #expect(
      Self.asked(try good.nginx.accessLog(), within: Self.badPiece)
        == IndexSet(integersIn: Self.badPiece))
    let sent = try corrupt.bodyBytesSent() + good.bodyBytesSent()
    let size = Int64(GetMetalinkTests.size)
    #expect(sent - size < size / 4, "fetched \(sent - size) twice")
  }
}
