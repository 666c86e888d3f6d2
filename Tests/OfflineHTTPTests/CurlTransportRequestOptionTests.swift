import Foundation
import OfflineHTTP
import TestSupport
import TestTiming
import Testing

/// Request options (issue 13, item 1) reach the wire: each test pins that an option was not
/// applied to requests before (the transport sent only its own header fields), against
/// nginx folders that answer only requests carrying the right credential.
@Suite(.serialized, .timed) struct CurlTransportRequestOptionTests {
  static let body = TestData.bytes(count: 40_000, seed: 13)
  static let folders = ["bearer", "basic", "cookie", "referer", "header", "open"]

  /// nginx with `a.bin` in every gated folder, logging the secret-carrying fields.
  struct Gated {
    let root: TemporaryDirectory
    let private_: TemporaryDirectory
    let server: NginxServer

    init(extraLocations: String = "") throws {
      root = try TemporaryDirectory(prefix: "offlinekit-gated")
      private_ = try TemporaryDirectory(prefix: "offlinekit-gated-private")
      for folder in CurlTransportRequestOptionTests.folders {
        try FileManager.default.createDirectory(
          at: root.url.appending(path: folder), withIntermediateDirectories: true)
        try CurlTransportRequestOptionTests.body.write(
          to: root.url.appending(path: "\(folder)/a.bin"))
      }
      try Data("#EXTM3U\n".utf8).write(to: root.url.appending(path: "cookie/index.m3u8"))
      let options = try NginxGates.options(
        htpasswdIn: private_.url,
        adding: .init(
          extraLocations: extraLocations,
          loggedHeaders: ["Authorization", "Cookie", "Referer", "X-Api-Key", "X-Plain"]))
      server = try NginxServer(root: root.url, options: options)
      try server.start()
    }

    func url(_ path: String) -> URL { server.url(path) }

    /// Two gated origins, the first redirecting to the second (`/away`) and to itself
    /// (`/here`), and options carrying every kind of secret (and `credentials`, when given)
    /// with their cookie file in the first's private folder.
    static func redirectingPair(credentials: Credentials? = nil) throws -> (
      first: Gated, second: Gated, options: RequestOptions, jar: CookieJar
    ) {
      let other = try Gated()
      let nginx = try Gated(
        extraLocations: """
          location = /away { return 302 \(other.url("/open/a.bin").absoluteString); }
          location = /here { return 302 /open/a.bin; }
          """)
      let cookies = nginx.private_.file("cookies.txt")
      try Data("127.0.0.1\tFALSE\t/\tFALSE\t0\tsid\tc00kie-s3cret\n".utf8).write(to: cookies)
      var options = RequestOptions(
        secretHeaderNames: ["X-Api-Key"], cookieFile: cookies.path, credentials: credentials)
      options.headers.add(name: "Authorization", value: "Bearer \(NginxGates.token)")
      options.headers.add(name: "X-Api-Key", value: NginxGates.headerValue)
      options.headers.add(name: "X-Plain", value: "visible")
      return (nginx, other, options, CookieJar(file: cookies.path))
    }
  }

  func get(_ url: URL, _ options: RequestOptions, jar: CookieJar? = nil) async throws -> (
    status: Int, body: Data
  ) {
    let delegate = RecordingDelegate()
    let head = try await CurlTransport().perform(
      HTTPRequest(url: url, options: options, cookieJar: jar), delegate: delegate)
    return (head.status, delegate.body)
  }

  /// Pins: `-H 'Authorization: Bearer …'` was never sent, so a source behind a token
  /// answered 401.
  @Test func aBearerTokenHeaderOpensTheTokenFolder() async throws {
    let nginx = try Gated()
    var options = RequestOptions()
    #expect(try await get(nginx.url("/bearer/a.bin"), options).status == 401)
    options.headers.add(name: "Authorization", value: "Bearer \(NginxGates.token)")
    let answer = try await get(nginx.url("/bearer/a.bin"), options)
    #expect(answer.status == 200)
    #expect(answer.body == Self.body)
  }

  /// Pins: `--user` credentials were never sent (HTTP Basic, RFC 7617).
  @Test func basicCredentialsOpenTheBasicFolder() async throws {
    let nginx = try Gated()
    var options = RequestOptions()
    options.credentials = try Credentials(user: NginxGates.user, password: "wrong")
    #expect(try await get(nginx.url("/basic/a.bin"), options).status == 401)
    options.credentials = try Credentials(user: NginxGates.user, password: NginxGates.password)
    #expect(try await get(nginx.url("/basic/a.bin"), options).status == 200)
  }

  /// Pins: `--netrc-file` was never read.
  @Test func aNetrcFileGivesTheCredentialsForItsHost() async throws {
    let nginx = try Gated()
    let netrc = nginx.private_.file("netrc")
    try Data(
      "machine 127.0.0.1 login \(NginxGates.user) password \(NginxGates.password)\n".utf8
    ).write(to: netrc)
    let options = RequestOptions(netrcFile: netrc.path)
    #expect(try await get(nginx.url("/basic/a.bin"), options).status == 200)
  }

  /// Pins: `--cookies FILE` was never read; a cookies.txt line for the host opens the folder.
  @Test func aCookiesFileSendsItsCookieToTheMatchingPath() async throws {
    let nginx = try Gated()
    let file = nginx.private_.file("cookies.txt")
    try Data(
      "# Netscape HTTP Cookie File\n127.0.0.1\tFALSE\t/cookie/\tFALSE\t0\t\(NginxGates.cookieName)\t\(NginxGates.cookieValue)\n"
        .utf8
    ).write(to: file)
    let options = RequestOptions(cookieFile: file.path)
    #expect(
      try await get(nginx.url("/cookie/a.bin"), options, jar: CookieJar(file: file.path)).status
        == 200)
    #expect(try await get(nginx.url("/cookie/a.bin"), options).status == 200, "without a jar too")
    let log = try await nginx.server.headerLog(minimumCount: 2)
    #expect(log.count == 2)
    #expect(log.allSatisfy { $0["Cookie"] == "\(NginxGates.cookieName)=\(NginxGates.cookieValue)" })
  }

  /// Pins: cookies a server set were forgotten, so a stream whose playlist sets the cookie
  /// its segments need failed with 403.
  @Test func aCookieTheServerSetIsSentOnTheContentsLaterRequests() async throws {
    let nginx = try Gated()
    let jar = CookieJar()
    #expect(try await get(nginx.url("/cookie/a.bin"), RequestOptions(), jar: jar).status == 403)
    #expect(
      try await get(nginx.url("/cookie/index.m3u8"), RequestOptions(), jar: jar).status == 200)
    #expect(try await get(nginx.url("/cookie/a.bin"), RequestOptions(), jar: jar).status == 200)
    #expect(
      try await get(nginx.url("/cookie/a.bin"), RequestOptions(), jar: CookieJar()).status == 403,
      "another content's jar does not have it")
  }

  /// Pins: `--referer` and `--user-agent` were never sent.
  @Test func theRefererAndUserAgentGoWithTheRequest() async throws {
    let nginx = try Gated()
    let options = RequestOptions(userAgent: "Player/2.0", referer: NginxGates.referer)
    #expect(try await get(nginx.url("/referer/a.bin"), options).status == 200)
    let entry = try #require(try await nginx.server.accessLog(minimumCount: 1).last)
    #expect(entry.userAgent == "Player/2.0")
  }

  /// Pins: a redirect to another origin (another port of the same host) received the
  /// token, the secret header, the Basic credentials and the cookies of the first.
  @Test func noSecretFollowsARedirectToAnotherOrigin() async throws {
    var (nginx, other, options, jar) = try Gated.redirectingPair(
      credentials: try Credentials(user: "ana", password: "pa55-s3cret"))

    #expect(try await get(nginx.url("/away"), options, jar: jar).status == 200)
    let landed = try #require(try await other.server.headerLog(minimumCount: 1).first)
    #expect(landed.uri == "/open/a.bin")
    #expect(landed["Authorization"] == nil)
    #expect(landed["X-Api-Key"] == nil)
    #expect(landed["Cookie"] == nil)
    #expect(landed["X-Plain"] == "visible", "fields that are not secret go along")

    #expect(try await get(nginx.url("/here"), options, jar: jar).status == 200)
    let kept = try await nginx.server.headerLog(minimumCount: 3).filter { $0.uri == "/open/a.bin" }
    #expect(kept.count == 1)
    #expect(kept.first?["X-Api-Key"] == NginxGates.headerValue, "the same origin gets them")
    #expect(kept.first?["Cookie"] == "sid=c00kie-s3cret")

    options.sendsSecretsAcrossRedirects = true
    #expect(try await get(nginx.url("/away"), options, jar: jar).status == 200)
    let trusted = try #require(try await other.server.headerLog(minimumCount: 2).last)
    #expect(trusted["X-Api-Key"] == NginxGates.headerValue, "--location-trusted sends them")
  }

  /// Pins: a source's own proxy was ignored; it goes before the environment's.
  @Test(.enabled(if: TinyProxy.isInstalled, "needs tinyproxy (scripts/install-deps)"))
  func aSourcesProxyAndNoProxyGoBeforeTheEnvironment() async throws {
    let nginx = try NginxFixture(
      files: ["a.bin": (10_000, 6)],
      options: .init(
        extraLocations: """
          location /proxied/ {
            if ($http_via !~ "\(TinyProxy.viaName)") { return 403; }
            rewrite ^/proxied/(.*)$ /$1 break;
          }
          """))
    let proxy = try TinyProxy()
    try proxy.start()
    let direct = CurlTransport(configuration: .init(environment: CurlEnvironment([:])))
    let viaOptions = RequestOptions(proxy: try Proxy(parsing: proxy.url.absoluteString))
    let head = try await direct.perform(
      HTTPRequest(url: nginx.url("/proxied/a.bin"), options: viaOptions),
      delegate: RecordingDelegate())
    #expect(head.status == 200)
    #expect(proxy.requests() == ["GET \(nginx.url("/proxied/a.bin").absoluteString)"])

    let proxied = CurlTransport(
      configuration: .init(environment: CurlEnvironment(["http_proxy": proxy.url.absoluteString])))
    let bypass = RequestOptions(noProxy: ["127.0.0.1"])
    let second = try await proxied.perform(
      HTTPRequest(url: nginx.url("/a.bin"), options: bypass), delegate: RecordingDelegate())
    #expect(second.status == 200)
    #expect(proxy.requests().count == 1, "the source's noProxy bypassed the proxy")
  }

  /// Pins: a source's own CA file was ignored, so its private CA was refused.
  @Test func aSourcesCAFileTrustsItsPrivateCA() async throws {
    let nginx = try NginxFixture(files: ["a.bin": (10_000, 7)], options: .init(tls: true))
    let certificate = try #require(nginx.server.certificatePath).path
    let transport = CurlTransport(configuration: .init(environment: CurlEnvironment([:])))
    let refused = await transport.failure(
      of: HTTPRequest(url: nginx.url("/a.bin")), delegate: RecordingDelegate())
    #expect(refused != nil, "the system does not trust the test CA")
    let head = try await transport.perform(
      HTTPRequest(url: nginx.url("/a.bin"), options: RequestOptions(caFile: certificate)),
      delegate: RecordingDelegate())
    #expect(head.status == 200)
  }
}
