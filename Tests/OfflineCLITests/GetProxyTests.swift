import Foundation
import TestSupport
import TestTiming
import Testing

/// `offline get` through a real proxy (tinyproxy), chosen the way curl chooses it: `--proxy`,
/// else `http_proxy` / `https_proxy` / `HTTPS_PROXY` / `all_proxy`, never uppercase
/// `HTTP_PROXY`; `--noproxy`, else `no_proxy`, bypassing it.
@Suite(
  .enabled(if: TinyProxy.isInstalled, "needs tinyproxy (scripts/install-deps)"), .ownThreads, .timed
)
struct GetProxyTests {
  // Pins: `get` had no --proxy ("Unknown option"); a proxy could only come from libcurl
  // reading the environment on its own.
  @Test func aDownloadWithProxyGoesThroughTheProxy() async throws {
    let fixture = try ProxyFixture()
    let result = try await fixture.offline([
      "get", fixture.url("/proxied/file.bin"), "-o", fixture.output(), "--proxy",
      fixture.proxy.url.absoluteString,
    ])

    #expect(result.status == 0, "\(result.stderrText)")
    #expect(fixture.downloaded(fixture.output()))
    #expect(fixture.proxy.requests().contains(fixture.forwarded("/proxied/file.bin")))
    #expect(try await fixture.nginx.accessLog(minimumCount: 1).map(\.status) == [200])
  }

  /// One way `get` may be told of a proxy (or of none), and whether the download must go
  /// through it; `PROXY` stands for the proxy's URL.
  struct ProxyChoice: Sendable, CustomTestStringConvertible {
    let testDescription: String
    /// `get`'s options after the URL and `-o`.
    var arguments: [String] = []
    /// The proxy variables of `get`'s environment.
    var environment: [String: String] = [:]
    /// Through the proxy: to `/proxied/`, which nginx serves only with tinyproxy's `Via`,
    /// and logged by the proxy; else straight to `/direct/`, served only without it.
    let proxied: Bool
  }

  static let proxyChoices = [
    // Pins: the proxy from http_proxy was libcurl's own reading of the environment, untested.
    ProxyChoice(
      testDescription: "http_proxy in the environment is used",
      environment: ["http_proxy": "PROXY"], proxied: true),
    ProxyChoice(
      testDescription: "ALL_PROXY is used when the scheme's own variable is not set",
      environment: ["ALL_PROXY": "PROXY"], proxied: true),
    // Curl ignores uppercase HTTP_PROXY: under CGI it is set from a request's `Proxy:` header.
    ProxyChoice(
      testDescription: "uppercase HTTP_PROXY is ignored as curl ignores it",
      environment: ["HTTP_PROXY": "PROXY"], proxied: false),
    ProxyChoice(
      testDescription: "no_proxy in the environment bypasses the proxy",
      environment: ["http_proxy": "PROXY", "no_proxy": "example.com, 127.0.0.1"],
      proxied: false),
    // Pins: `get` had no --noproxy.
    ProxyChoice(
      testDescription: "--noproxy bypasses the proxy given with --proxy",
      arguments: ["--proxy", "PROXY", "--noproxy", "127.0.0.0/8"], proxied: false),
    ProxyChoice(
      testDescription: "--noproxy replaces no_proxy from the environment",
      arguments: ["--noproxy", "other"],
      environment: ["http_proxy": "PROXY", "no_proxy": "127.0.0.1"], proxied: true),
  ]

  @Test(arguments: proxyChoices)
  func theProxyIsChosenAsCurlChoosesIt(_ choice: ProxyChoice) async throws {
    let fixture = try ProxyFixture()
    let proxy = fixture.proxy.url.absoluteString
    let path = choice.proxied ? "/proxied/file.bin" : "/direct/file.bin"
    let result = try await fixture.offline(
      ["get", fixture.url(path), "-o", fixture.output()]
        + choice.arguments.map { $0 == "PROXY" ? proxy : $0 },
      environment: choice.environment.mapValues { $0 == "PROXY" ? proxy : $0 })

    #expect(result.status == 0, "\(result.stderrText)")
    #expect(fixture.downloaded(fixture.output()))
    #expect(fixture.proxy.requests() == (choice.proxied ? [fixture.forwarded(path)] : []))
  }

  // Pins: through a proxy (https_proxy, read by libcurl) every https download failed with
  // "The server answered 0": the proxy's head for CONNECT was taken for the origin's.
  @Test func anHTTPSOriginIsReachedThroughTheProxyWithConnect() async throws {
    let fixture = try ProxyFixture(tls: true)
    let certificate = try #require(fixture.nginx.certificatePath).path
    let result = try await fixture.offline(
      ["get", fixture.url("/file.bin"), "-o", fixture.output()],
      environment: [
        "https_proxy": fixture.proxy.url.absoluteString, "SSL_CERT_FILE": certificate,
      ])

    #expect(result.status == 0, "\(result.stderrText)")
    #expect(fixture.downloaded(fixture.output()))
    #expect(fixture.proxy.requests() == [fixture.tunnel])
  }

  @Test func anUnknownProxySchemeIsAUsageErrorNamingTheArgument() async throws {
    let fixture = try ProxyFixture()
    let result = try await fixture.offline([
      "get", fixture.url("/proxied/file.bin"), "-o", fixture.output(), "--proxy",
      "gopher://127.0.0.1:70",
    ])

    #expect(result.status == 64, "\(result.stderrText)")
    #expect(result.stderrText.contains("--proxy"), "\(result.stderrText)")
    #expect(result.stderrText.contains("gopher"), "\(result.stderrText)")
    #expect(!FileManager.default.fileExists(atPath: fixture.output() + ".part"))
    #expect(try fixture.nginx.accessLog().isEmpty)
  }

  // Pins: a bad proxy variable made libcurl fail each request as "unsupported protocol",
  // which read as the origin not speaking HTTP.
  @Test func anUnknownSchemeInAProxyVariableIsAUsageErrorNamingTheVariable() async throws {
    let fixture = try ProxyFixture()
    let result = try await fixture.offline(
      ["get", fixture.url("/proxied/file.bin"), "-o", fixture.output()],
      environment: ["http_proxy": "gopher://u:pr0xy-secret@127.0.0.1:70"])

    #expect(result.status == 64, "\(result.stderrText)")
    #expect(result.stderrText.contains("http_proxy"), "\(result.stderrText)")
    #expect(!result.stderrText.contains("pr0xy-secret"), "\(result.stderrText)")
    #expect(try fixture.nginx.accessLog().isEmpty)
    #expect(!FileManager.default.fileExists(atPath: fixture.store.path))
  }

  @Test func proxyCredentialsAreSentAndNeverShown() async throws {
    let fixture = try ProxyFixture(proxyAuth: (user: "alice", password: "pr0xy-secret"))
    let port = fixture.proxy.port
    let good = try await fixture.offline([
      "get", fixture.url("/proxied/file.bin"), "-o", fixture.output(), "--proxy",
      "http://alice:pr0xy-secret@127.0.0.1:\(port)",
    ])
    #expect(good.status == 0, "\(good.stderrText)")
    #expect(fixture.downloaded(fixture.output()))

    let wrong = try await fixture.offline([
      "get", fixture.url("/proxied/file.bin"), "-o", fixture.output("wrong.bin"), "--json",
      "--retries", "1", "--proxy", "http://alice:wr0ng-secret@127.0.0.1:\(port)",
    ])
    #expect(wrong.status == 1, "\(wrong.stderrText)")
    // tinyproxy refuses wrong credentials with 401 (not 407) on a forwarded request.
    #expect(wrong.stderrText.contains("401"), "\(wrong.stderrText)")
    for text in [wrong.stderrText, wrong.stdoutText, good.stderrText, good.stdoutText] {
      #expect(!text.contains("secret"), "\(text)")
    }
  }
}
