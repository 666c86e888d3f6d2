import Foundation
import OfflineHTTP
import TestSupport
import TestTiming
import Testing

/// Request options reach the wire whatever the transport (issue 18, item 1, with issue 13's
/// options): every test runs once per transport against nginx folders that answer only
/// requests carrying the right credential. Each pins that ``URLSessionTransport`` sent only
/// its own header fields: no option, no credential, no cookie.
@Suite(.serialized, .timed) struct ConformanceRequestOptionTests {
  typealias Gated = CurlTransportRequestOptionTests.Gated
  let body = CurlTransportRequestOptionTests.body

  func get(
    _ factory: TransportFactory, _ url: URL, _ options: RequestOptions, jar: CookieJar? = nil
  ) async throws -> (status: Int, body: Data) {
    let delegate = RecordingDelegate()
    let head = try await factory.make().perform(
      HTTPRequest(url: url, options: options, cookieJar: jar), delegate: delegate)
    return (head.status, delegate.body)
  }

  /// Pins: the options' header fields, `Referer` and `User-Agent` were not sent.
  @Test(arguments: TransportFactory.all)
  func theOptionsHeadersRefererAndUserAgentAreSent(_ factory: TransportFactory) async throws {
    let nginx = try Gated()
    var options = RequestOptions(userAgent: "Player/2.0", referer: NginxGates.referer)
    options.headers.add(name: "Authorization", value: "Bearer \(NginxGates.token)")
    options.headers.add(name: NginxGates.headerName, value: NginxGates.headerValue)
    let bearer = try await get(factory, nginx.url("/bearer/a.bin"), options)
    #expect(bearer.status == 200)
    #expect(bearer.body == body)
    #expect(try await get(factory, nginx.url("/header/a.bin"), options).status == 200)
    #expect(try await get(factory, nginx.url("/referer/a.bin"), options).status == 200)
    let entries = try await nginx.server.accessLog(minimumCount: 3)
    #expect(entries.count == 3)
    #expect(entries.allSatisfy { $0.userAgent == "Player/2.0" })
  }

  /// Pins: `--user` credentials were not sent (HTTP Basic, RFC 7617).
  @Test(arguments: TransportFactory.all)
  func basicCredentialsOpenTheBasicFolder(_ factory: TransportFactory) async throws {
    let nginx = try Gated()
    var options = RequestOptions()
    options.credentials = try Credentials(user: NginxGates.user, password: "wrong")
    #expect(try await get(factory, nginx.url("/basic/a.bin"), options).status == 401)
    options.credentials = try Credentials(user: NginxGates.user, password: NginxGates.password)
    let answer = try await get(factory, nginx.url("/basic/a.bin"), options)
    #expect(answer.status == 200)
    #expect(answer.body == body)
  }

  /// Pins: `--netrc-file` was not read.
  @Test(arguments: TransportFactory.all)
  func aNetrcFileGivesTheCredentialsForItsHost(_ factory: TransportFactory) async throws {
    let nginx = try Gated()
    let netrc = nginx.private_.file("netrc")
    try Data(
      """
      machine example.com login someone password other
      machine 127.0.0.1
        login \(NginxGates.user)
        password \(NginxGates.password)

      """.utf8
    ).write(to: netrc)
    let options = RequestOptions(netrcFile: netrc.path)
    #expect(try await get(factory, nginx.url("/basic/a.bin"), options).status == 200)
    let elsewhere = nginx.private_.file("netrc-elsewhere")
    try Data("machine example.com login \(NginxGates.user) password x\n".utf8).write(to: elsewhere)
    #expect(
      try await get(factory, nginx.url("/basic/a.bin"), RequestOptions(netrcFile: elsewhere.path))
        .status == 401, "another host's entry is not used")
  }

  /// Pins: `--cookies FILE` was not read; its line for the host and path is sent, with a jar
  /// and without one.
  @Test(arguments: TransportFactory.all)
  func aCookiesFileSendsItsCookieToTheMatchingPath(_ factory: TransportFactory) async throws {
    let nginx = try Gated()
    let file = nginx.private_.file("cookies.txt")
    try Data(
      """
      # Netscape HTTP Cookie File
      127.0.0.1\tFALSE\t/cookie/\tFALSE\t0\t\(NginxGates.cookieName)\t\(NginxGates.cookieValue)
      127.0.0.1\tFALSE\t/elsewhere/\tFALSE\t0\tother\tnot-here
      127.0.0.1\tFALSE\t/\tFALSE\t1000\tstale\texpired-in-1970

      """.utf8
    ).write(to: file)
    let options = RequestOptions(cookieFile: file.path)
    let jar = CookieJar(file: file.path)
    #expect(try await get(factory, nginx.url("/cookie/a.bin"), options, jar: jar).status == 200)
    #expect(try await get(factory, nginx.url("/cookie/a.bin"), options).status == 200, "no jar")
    let log = try await nginx.server.headerLog(minimumCount: 2)
    #expect(log.count == 2)
    #expect(log.allSatisfy { $0["Cookie"] == "\(NginxGates.cookieName)=\(NginxGates.cookieValue)" })
  }

  /// Pins: cookies a server set were forgotten, so a stream whose playlist sets the cookie
  /// its segments need failed with 403.
  @Test(arguments: TransportFactory.all)
  func aCookieTheServerSetIsSentOnTheContentsLaterRequests(
    _ factory: TransportFactory
  ) async throws {
    let nginx = try Gated()
    let jar = CookieJar()
    let none = RequestOptions()
    #expect(try await get(factory, nginx.url("/cookie/a.bin"), none, jar: jar).status == 403)
    #expect(try await get(factory, nginx.url("/cookie/index.m3u8"), none, jar: jar).status == 200)
    let answer = try await get(factory, nginx.url("/cookie/a.bin"), none, jar: jar)
    #expect(answer.status == 200)
    #expect(answer.body == body)
    #expect(
      try await get(factory, nginx.url("/cookie/a.bin"), none, jar: CookieJar()).status == 403,
      "another content's jar does not have it")
  }

  /// Pins: the server-set cookies were forgotten; and a cookie for a domain the server is
  /// not under (RFC 6265, section 5.3, step 6) must never be kept.
  @Test(arguments: TransportFactory.all)
  func aCookieForADomainTheServerIsNotUnderIsNotKept(_ factory: TransportFactory) async throws {
    let server = try FaultServer()
    defer { server.stop() }
    server.setRoute(
      "/set",
      .status(
        code: 200,
        headers: [
          ("Set-Cookie", "stolen=1; Domain=example.com; Path=/"), ("Set-Cookie", "mine=2; Path=/"),
        ], body: Data("ok\n".utf8)))
    server.setRoute("/check", .status(code: 200, body: Data("ok\n".utf8)))
    let jar = CookieJar()
    let transport = factory.make()
    _ = try await transport.perform(
      HTTPRequest(url: server.url("/set"), cookieJar: jar), delegate: RecordingDelegate())
    _ = try await transport.perform(
      HTTPRequest(url: server.url("/check"), cookieJar: jar), delegate: RecordingDelegate())

    let check = try #require(server.requests(for: "/check").first)
    #expect(check.headers["cookie"] == "mine=2")
    #expect(!jar.netscapeLines.contains { $0.contains("stolen") }, "\(jar.netscapeLines)")
  }

  /// Pins: a redirect to another origin (another port of the same host) received the
  /// token, the secret header, the Basic credentials and the cookies of the first; within
  /// the origin they go along.
  @Test(arguments: TransportFactory.all)
  func noSecretFollowsARedirectToAnotherOrigin(_ factory: TransportFactory) async throws {
    let (nginx, other, options, jar) = try Gated.redirectingPair()

    #expect(try await get(factory, nginx.url("/away"), options, jar: jar).status == 200)
    let landed = try #require(try await other.server.headerLog(minimumCount: 1).first)
    #expect(landed.uri == "/open/a.bin")
    #expect(landed["Authorization"] == nil)
    #expect(landed["X-Api-Key"] == nil)
    #expect(landed["Cookie"] == nil)
    #expect(landed["X-Plain"] == "visible", "fields that are not secret go along")

    #expect(try await get(factory, nginx.url("/here"), options, jar: jar).status == 200)
    let kept = try await nginx.server.headerLog(minimumCount: 3).filter { $0.uri == "/open/a.bin" }
    #expect(kept.count == 1)
    #expect(kept.first?["X-Api-Key"] == NginxGates.headerValue, "the same origin gets them")
    #expect(kept.first?["Authorization"] == "Bearer \(NginxGates.token)")
    #expect(kept.first?["Cookie"] == "sid=c00kie-s3cret")
  }

  /// Pins: `--location-trusted` did not send the secrets on to another origin.
  @Test(arguments: TransportFactory.all)
  func locationTrustedSendsTheSecretsToAnotherOrigin(_ factory: TransportFactory) async throws {
    var (nginx, other, options, jar) = try Gated.redirectingPair()
    options.sendsSecretsAcrossRedirects = true

    #expect(try await get(factory, nginx.url("/away"), options, jar: jar).status == 200)
    let trusted = try #require(try await other.server.headerLog(minimumCount: 1).first)
    #expect(trusted.uri == "/open/a.bin")
    #expect(trusted["X-Api-Key"] == NginxGates.headerValue)
    #expect(trusted["Authorization"] == "Bearer \(NginxGates.token)")
    #expect(trusted["Cookie"] == "sid=c00kie-s3cret")
  }
}
