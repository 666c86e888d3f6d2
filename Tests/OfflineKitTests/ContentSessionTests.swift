import Foundation
import OfflineHTTP
import TestSupport
import TestTiming
import Testing

@testable import OfflineKit

/// Issue 38, item 3: one session per content carries its options, cookies and rate budget
/// into every request of the content: the download's, and later a repair's.
@Suite(.serialized, .timed)
struct ContentSessionTests {
  /// Pins: a repair fetched its segments with neither the content's options nor the cookies
  /// its download was given, so a stream behind a cookie check, whose playlist sets the
  /// cookie, could be downloaded but not repaired (every segment refused with a 403).
  @Test(.enabled(if: FFmpeg.isAvailable))
  func aRepairSendsTheCookieThePlaylistSetDuringTheDownload() async throws {
    let origin = try await GatedOrigin(streams: ["hls": .manySegments])
    let fixture = try ManagerFixture()
    let content = try await VerifyFixture.download(
      origin.streamURL("hls", in: "cookie"), id: "c", in: fixture)
    let index = fixture.contentFolder("c").appending(path: "index.m3u8")
    let originals = try OfflineSegments.bytes(index)
    let pack = fixture.contentFolder("c").appending(path: "pack.ts").path
    try #require(FileManager.default.fileExists(atPath: pack), "small segments share a pack")
    let before = try origin.server.headerLog().count
    try FileDamage.flipByte(at: 10, of: pack)

    let report = try await content.repair()

    #expect(report.outcome == .repaired && report.piecesFetched == 1)
    #expect(try OfflineSegments.bytes(index) == originals, "byte-identical")
    let repairs = try origin.server.headerLog().dropFirst(before)
    #expect(repairs.count == 1 && repairs.allSatisfy { $0.status == 200 }, "\(repairs)")
    #expect(
      repairs.allSatisfy {
        $0["Cookie"] == "\(NginxGates.cookieName)=\(NginxGates.cookieValue)"
      })
  }

  /// A content's session is made once and kept while its URL and options stay the same,
  /// so its cookies live as long as the content; new options or a new URL make a new one.
  @Test func aContentKeepsItsSessionUntilItsURLOrOptionsChange() throws {
    let sessions = ContentSessions(
      transport: ScriptedTransport(), queueBudget: RateLimiter(nil), clock: ManualClock())
    let url = try #require(URL(string: "https://example.com/a.m3u8"))
    let retry = RetryPolicy()
    var options = RequestOptions()
    let first = sessions.session(id: "a", url: url, options: options, retry: retry)
    let again = sessions.session(id: "a", url: url, options: options, retry: retry)
    #expect(first.request(url).cookieJar === again.request(url).cookieJar, "the same jar")

    options.headers.add(name: "X-Plain", value: "1")
    let changed = sessions.session(id: "a", url: url, options: options, retry: retry)
    #expect(changed.request(url).cookieJar !== first.request(url).cookieJar)
    #expect(changed.requestOptions.headers["X-Plain"] == "1")

    let moved = try #require(URL(string: "https://example.com/b.m3u8"))
    let elsewhere = sessions.session(id: "a", url: moved, options: options, retry: retry)
    #expect(elsewhere.request(moved).cookieJar !== changed.request(url).cookieJar)

    sessions.forget(id: "a")
    let afresh = sessions.session(id: "a", url: moved, options: options, retry: retry)
    #expect(afresh.request(moved).cookieJar !== elsewhere.request(moved).cookieJar)
  }

  /// Only the most recently used ``ContentSessions/capacity`` sessions are kept.
  @Test func theLeastRecentlyUsedSessionGoesPastTheCapacity() throws {
    let sessions = ContentSessions(
      transport: ScriptedTransport(), queueBudget: RateLimiter(nil), clock: ManualClock())
    let url = try #require(URL(string: "https://example.com/f"))
    func jar(_ id: String) -> CookieJar? {
      sessions.session(id: id, url: url, options: RequestOptions(), retry: RetryPolicy())
        .request(url).cookieJar
    }
    let oldest = jar("0")
    let used = jar("1")
    for id in 2...ContentSessions.capacity { _ = jar("\(id)") }
    #expect(jar("1") === used, "used again: kept")
    _ = jar("over")  // one past the capacity: "0" goes
    #expect(jar("1") === used)
    #expect(jar("0") !== oldest)
  }

  /// Request options that cannot be used are found once, when the session is made, and
  /// every fetch of the content reports them before anything is sent.
  @Test func optionsThatCannotBeUsedFailEveryFetchBeforeItIsSent() async throws {
    let transport = ScriptedTransport()
    var options = RequestOptions()
    options.trustedOrigins = [try #require(URL(string: "ftp://example.com"))]
    let url = try #require(URL(string: "https://example.com/a.bin"))
    let session = ContentSession(url: url, transport: transport, requestOptions: options)
    #expect(throws: Transfer.Error.self) { try session.checkOptions(destination: "/x") }
    let scratch = try TemporaryDirectory()
    let transfer = try Transfer(
      url: url, destination: scratch.url.appending(path: "a.bin").path,
      store: scratch.url.appending(path: "store"), transport: transport, requestOptions: options)
    let error = await #expect(throws: Transfer.Error.self) { try await transfer.run() }
    #expect(error?.code == .invalidRequestOptions)
    #expect(transport.requests.isEmpty, "nothing was sent")
  }
}
