import Foundation
import OfflineHTTP
import TestSupport
import TestTiming
import Testing

/// Secrets go only to the origin of the URL the user gave and the trusted ones (issue 36,
/// item 4), whatever the transport: a playlist names a piece on another origin directly, no
/// redirect involved.
@Suite(.serialized, .timed) struct ConformanceSecretScopeTests {
  typealias Gated = CurlTransportRequestOptionTests.Gated

  func get(
    _ factory: TransportFactory, _ url: URL, _ options: RequestOptions, jar: CookieJar? = nil
  ) async throws -> Int {
    try await factory.make().perform(
      HTTPRequest(url: url, options: options, cookieJar: jar), delegate: RecordingDelegate()
    ).status
  }

  /// Pins: a request to another origin than the options' `secretsOrigin` carried the
  /// token, the secret header and the credentials. Cookies keep their domain rules (the
  /// cookie file's `127.0.0.1` covers every port); a trusted origin gets everything.
  @Test(arguments: TransportFactory.all)
  func aPieceOnAnotherOriginGetsNoSecretUnlessTrusted(_ factory: TransportFactory) async throws {
    let (home, other, options, jar) = try Gated.redirectingPair(
      credentials: try Credentials(user: "ana", password: "pa55-s3cret"))
    var scoped = options.scopingSecrets(to: home.url("/open/index.m3u8"))

    #expect(try await get(factory, other.url("/open/a.bin"), scoped, jar: jar) == 200)
    let piece = try #require(try await other.server.headerLog(minimumCount: 1).last)
    #expect(piece["Authorization"] == nil)
    #expect(piece["X-Api-Key"] == nil)
    #expect(piece["X-Plain"] == "visible", "fields that are not secret go along")
    #expect(piece["Cookie"] == "sid=c00kie-s3cret", "cookies follow their domain rules")

    #expect(try await get(factory, home.url("/open/a.bin"), scoped, jar: jar) == 200)
    let own = try #require(try await home.server.headerLog(minimumCount: 1).last)
    #expect(own["Authorization"] == "Bearer \(NginxGates.token)", "its own origin gets them")

    scoped.trustedOrigins = [other.server.baseURL]
    #expect(try await get(factory, other.url("/open/a.bin"), scoped, jar: jar) == 200)
    let trusted = try #require(try await other.server.headerLog(minimumCount: 2).last)
    #expect(trusted["Authorization"] == "Bearer \(NginxGates.token)")
    #expect(trusted["X-Api-Key"] == NginxGates.headerValue)

    #expect(try await get(factory, home.url("/away"), scoped, jar: jar) == 200)
    let redirected = try #require(try await other.server.headerLog(minimumCount: 3).last)
    #expect(redirected["X-Api-Key"] == NginxGates.headerValue, "a trusted origin after a redirect")
  }

  /// A trusted origin that is not an http or https URL with a host is refused by
  /// `validate()`, naming `--trust-origin`.
  @Test func aTrustedOriginMustBeAnHTTPURL() {
    let options = RequestOptions(trustedOrigins: [URL(string: "ftp://cdn.example/")!])
    #expect(throws: RequestOptionError.self) { try options.validate() }
    #expect(
      (try? RequestOptions(trustedOrigins: [URL(string: "https://cdn.example")!])
        .validate()) != nil)
  }
}
