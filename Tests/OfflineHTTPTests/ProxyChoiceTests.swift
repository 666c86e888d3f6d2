import Foundation
import OfflineHTTP
import TestTiming
import Testing

/// The proxy rules as curl applies them, one row per test, without I/O.
@Suite(.timed) struct ProxyChoiceTests {
  static let http = URL(string: "http://files.example.com/a.bin")!
  static let https = URL(string: "https://files.example.com/a.bin")!

  func proxy(
    _ environment: [String: String], _ url: URL = http, explicit: String? = nil,
    noProxy: String? = nil
  ) throws -> String? {
    let choice = ProxyChoice(
      proxy: try explicit.map { try Proxy(parsing: $0) },
      noProxy: noProxy.map { NoProxyList(parsing: $0) }, environment: CurlEnvironment(environment))
    return try choice.proxy(for: url)?.url.absoluteString
  }

  @Test func httpURLsUseLowercaseHTTPProxyOnly() throws {
    #expect(try proxy(["http_proxy": "http://p:1"]) == "http://p:1")
    #expect(try proxy(["HTTP_PROXY": "http://p:1"]) == nil)
  }

  @Test func httpsURLsUseHTTPSProxyLowercaseFirst() throws {
    #expect(try proxy(["HTTPS_PROXY": "http://up:1"], Self.https) == "http://up:1")
    #expect(
      try proxy(["https_proxy": "http://low:1", "HTTPS_PROXY": "http://up:1"], Self.https)
        == "http://low:1")
    #expect(try proxy(["http_proxy": "http://p:1"], Self.https) == nil)
  }

  @Test func allProxyIsTheFallback() throws {
    #expect(try proxy(["ALL_PROXY": "socks5h://s:1080"], Self.https) == "socks5h://s:1080")
    #expect(try proxy(["all_proxy": "http://a:1", "http_proxy": "http://p:1"]) == "http://p:1")
  }

  @Test func anEmptyVariableMeansNoProxyAndEndsTheLookup() throws {
    #expect(try proxy(["https_proxy": "", "HTTPS_PROXY": "http://up:1"], Self.https) == nil)
    #expect(try proxy(["http_proxy": "", "all_proxy": "http://a:1"]) == nil)
  }

  @Test func aProxyWithoutSchemeIsHTTP() throws {
    #expect(try proxy(["http_proxy": "p.example:3128"]) == "http://p.example:3128")
  }

  @Test func theExplicitProxyReplacesTheVariables() throws {
    #expect(try proxy(["http_proxy": "http://p:1"], explicit: "http://x:2") == "http://x:2")
  }

  @Test func noProxyStillAppliesToTheExplicitProxyAsInCurl() throws {
    #expect(try proxy(["no_proxy": "example.com"], explicit: "http://x:2") == nil)
  }

  @Test func noProxyLowercaseComesFirstAndTheOptionReplacesBoth() throws {
    let env = ["http_proxy": "http://p:1", "no_proxy": "other.org", "NO_PROXY": "example.com"]
    #expect(try proxy(env) == "http://p:1")
    #expect(try proxy(["http_proxy": "http://p:1", "NO_PROXY": "example.com"]) == nil)
    #expect(try proxy(["http_proxy": "http://p:1", "no_proxy": "*"], noProxy: "") == "http://p:1")
  }

  @Test func aBadVariableIsAnErrorNamingItWithoutItsPassword() throws {
    let choice = ProxyChoice(
      environment: CurlEnvironment(["https_proxy": "gopher://u:s3cret@p:70"]))
    let error = #expect(throws: RequestOptionError.self) { try choice.proxy(for: Self.https) }
    #expect(error?.option == "https_proxy")
    #expect(error.map { !"\($0)".contains("s3cret") } == true)
    #expect(throws: RequestOptionError.self) { try choice.validate() }
    #expect(try choice.proxy(for: Self.http) == nil)
  }

  @Test func theEnvironmentKeepsOnlyCurlsVariables() {
    let environment = CurlEnvironment(["HOME": "/root", "TOKEN": "x", "http_proxy": "http://p:1"])
    #expect(environment.values == ["http_proxy": "http://p:1"])
    #expect(!"\(environment)".contains("p:1"))
  }
}

/// `no_proxy` / `--noproxy` matching, as curl's.
@Suite(.timed) struct NoProxyListTests {
  @Test(arguments: [
    ("example.com", "example.com", true), ("example.com", "www.example.com", true),
    ("example.com", "notexample.com", false), (".example.com", "example.com", true),
    ("EXAMPLE.com.", "www.Example.COM.", true), ("a.org, example.com", "example.com", true),
    ("a.org example.com", "x.example.com", true), ("*", "anything.net", true),
    ("*,a.org", "anything.net", false), ("", "example.com", false),
    ("127.0.0.1", "127.0.0.1", true), ("127.0.0.0/8", "127.9.9.9", true),
    ("10.0.0.0/8", "11.0.0.1", false), ("localhost", "127.0.0.1", false),
    ("::1", "[::1]", true), ("fd00::/8", "fd12::1", true), ("fd00::/8", "fe80::1", false),
    ("127.0.0.1", "localhost", false),
  ])
  func matchesAsCurlDoes(list: String, host: String, bypassed: Bool) {
    #expect(NoProxyList(parsing: list).contains(host: host) == bypassed, "\(list) / \(host)")
  }
}

/// Which CAs are trusted, in curl's order.
@Suite(.timed) struct TrustedCAsTests {
  func trust(_ caFile: String? = nil, _ environment: [String: String] = [:]) -> TrustedCAs {
    TrustedCAs(caFile: caFile, environment: CurlEnvironment(environment))
  }

  @Test func nothingSetIsTheSystems() {
    #expect(trust() == .system)
    #expect(trust(nil, ["SSL_CERT_FILE": "", "CURL_CA_BUNDLE": ""]) == .system)
  }

  @Test func theCAFileComesFirstAndReplacesEverything() {
    let chosen = trust("/a.pem", ["CURL_CA_BUNDLE": "/b.pem", "SSL_CERT_DIR": "/d"])
    #expect(chosen.file == .path("/a.pem"))
    #expect(chosen.folder == TrustedCAs.Location.none)
    #expect(chosen.sources.map(\.setting) == ["--ca-file"])
  }

  @Test func curlCABundleComesBeforeTheOpenSSLVariables() {
    let chosen = trust(nil, ["CURL_CA_BUNDLE": "/b.pem", "SSL_CERT_FILE": "/c.pem"])
    #expect(chosen.file == .path("/b.pem"))
    #expect(chosen.folder == TrustedCAs.Location.none)
  }

  @Test func sslCertFileAndDirEachReplaceTheSystemsOfTheirKind() {
    #expect(trust(nil, ["SSL_CERT_FILE": "/c.pem"]).folder == .system)
    #expect(trust(nil, ["SSL_CERT_DIR": "/d"]).file == .system)
    let both = trust(nil, ["SSL_CERT_FILE": "/c.pem", "SSL_CERT_DIR": "/d"])
    #expect(both.file == .path("/c.pem"))
    #expect(both.folder == .path("/d"))
    #expect(both.sources.map(\.setting) == ["SSL_CERT_FILE", "SSL_CERT_DIR"])
  }
}
