import Foundation
import OfflineHTTP
import OfflineLocks
import OfflineStore
import TestSupport
import TestTiming
import Testing

@testable import OfflineKit

/// Issue 38, item 5: one download path for the queue and `offline get`: the dispatch by
/// kind, the URL refresh with one limit, the journal carried over to a fresh URL and the
/// free-space decision, each a decision of the library's.
@Suite(.timed)
struct ContentDownloadTests {
  static let body = TestData.bytes(count: 256 << 10, seed: 38)

  /// A file download over `transport` into a fresh folder, from `url`.
  static func download(_ url: URL, transport: ScriptedTransport, in folder: TemporaryDirectory)
    throws -> ContentDownload
  {
    let index = try OfflineIndex(directory: folder.url.appending(path: "store"))
    return ContentDownload(
      kind: ContentDownload.Kind(url),
      session: ContentSession(
        url: url, transport: transport, retry: RetryPolicy(maximumAttempts: 2)),
      journal: index.transfers, destination: folder.url.appending(path: "a.bin").path,
      file: Transfer.Configuration(
        retry: RetryPolicy(maximumAttempts: 3, initialDelay: .milliseconds(1))))
  }

  @Test func theKindComesFromThePathsExtension() throws {
    let kinds = try ["a.m3u8", "b.M3U", "c.mpd", "d.mp4", "e"].map {
      ContentDownload.Kind(try #require(URL(string: "https://example.com/x/\($0)?q=1")))
    }
    #expect(kinds == [.hls, .hls, .dash, .file, .file])
  }

  /// A signed URL that expires mid-file: the refusal asks the hook, the journal goes on
  /// under the fresh URL, and the resume asks it only for the missing bytes with `If-Range`.
  @Test func aRefusedFileGoesOnFromAFreshURLWithTheBytesItHas() async throws {
    let transport = ScriptedTransport()
    let old = try #require(URL(string: "https://old.example.com/a.bin?sig=old"))
    let fresh = try #require(URL(string: "https://new.example.com/a.bin?sig=new"))
    transport.enqueue(old, ScriptedResponse.ok(Self.body).cut(after: 100_000))
    transport.route(old) { _ in .status(403) }
    transport.serve(fresh, ScriptedResource(Self.body))
    let asked = Locked<[URLRefresh.Request]>([])
    let refresh = URLRefresh { request in
      asked.withLock { $0.append(request) }
      return fresh
    }
    let folder = try TemporaryDirectory()
    let outcome = try await Self.download(old, transport: transport, in: folder)
      .run(refreshing: refresh, contentID: "a") { _ in }

    guard case .file(let file) = outcome else { throw Unexpected("\(outcome)") }
    #expect(FileManager.default.contents(atPath: file.destination) == Self.body)
    #expect(asked.withLock { $0 } == [.init(contentID: "a", url: old, status: 403)])
    let resumed = transport.requests(to: fresh)
    #expect(resumed.count == 1 && resumed.first?.range == "bytes=100000-", "\(resumed)")
    #expect(resumed.first?.ifRange == "\"v1\"")
  }

  /// Fresh URLs that keep being refused, with no byte in between, are asked for at most
  /// `maximumInARow` times; then the refusal stands.
  @Test func freshURLsThatKeepBeingRefusedStopAtTheLimit() async throws {
    let transport = ScriptedTransport()
    let first = try #require(URL(string: "https://cdn.example.com/a.bin?sig=0"))
    let count = Locked(0)
    let refresh = URLRefresh(maximumInARow: 2) { _ in
      let next = count.withLock {
        $0 += 1; return $0
      }
      return URL(string: "https://cdn.example.com/a.bin?sig=\(next)")!
    }
    for n in 0...3 {
      transport.route(URL(string: "https://cdn.example.com/a.bin?sig=\(n)")!) { _ in .status(410) }
    }
    let folder = try TemporaryDirectory()
    let error = await #expect(throws: ContentDownload.Failure.self) {
      _ = try await Self.download(first, transport: transport, in: folder)
        .run(refreshing: refresh, contentID: "a") { _ in }
    }
    guard case .transfer(let failure)? = error, case .status(410, _) = failure.kind else {
      throw Unexpected("\(String(describing: error))")
    }
    #expect(count.withLock { $0 } == 2)
  }

  /// A hook that gives no URL ends the download saying why, in the hook's words.
  @Test func aHookThatGivesNoURLEndsSayingWhy() async throws {
    let transport = ScriptedTransport()
    let url = try #require(URL(string: "https://cdn.example.com/a.bin?sig=old"))
    transport.route(url) { _ in .status(401) }
    let refresh = URLRefresh { _ in throw URLRefreshProblem("the signer is down") }
    let folder = try TemporaryDirectory()
    let error = await #expect(throws: ContentDownload.Failure.self) {
      _ = try await Self.download(url, transport: transport, in: folder)
        .run(refreshing: refresh, contentID: "a") { _ in }
    }
    guard case .noFreshURL(url, 401, "the signer is down")? = error else {
      throw Unexpected("\(String(describing: error))")
    }
  }

  /// The refresh count: a refused attempt with bytes starts it again at one, one without
  /// adds to it, and past the limit the refusal stands and the count starts over.
  @Test func theRefreshStreakCountsRefusalsWithoutProgress() {
    let refresh = URLRefresh(maximumInARow: 2) { request in request.url }
    var streak = URLRefresh.Streak()
    #expect(streak.allowsAnother(of: refresh, progressed: false) && streak.count == 1)
    #expect(streak.allowsAnother(of: refresh, progressed: false) && streak.count == 2)
    #expect(!streak.allowsAnother(of: refresh, progressed: false) && streak.count == 0)
    #expect(streak.allowsAnother(of: refresh, progressed: false) && streak.count == 1)
    #expect(streak.allowsAnother(of: refresh, progressed: true) && streak.count == 1)
  }

  /// The free-space decision the queue and `get --min-free` share: the file and the margin
  /// must fit the empty file system, and what is still to come plus the margin what is free.
  @Test(arguments: [
    (length: 50, written: 0, margin: 10, expected: nil as StorageSpace.Shortage?),
    (length: 95, written: 0, margin: 10, expected: .capacity(needed: 5)),
    (length: 65, written: 0, margin: 10, expected: .available(needed: 5)),
    (length: 65, written: 30, margin: 10, expected: nil),
    (length: 0, written: 0, margin: 71, expected: .available(needed: 1)),
  ])
  func theSpaceShortageOfADownload(
    length: Int64, written: Int64, margin: Int64, expected: StorageSpace.Shortage?
  ) {
    let space = StorageSpace(available: 70, capacity: 100)
    #expect(space.shortage(length: length, written: written, margin: margin) == expected)
  }
}

/// A result a test did not expect, with what it was.
private struct Unexpected: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}
