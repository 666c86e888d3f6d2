import Foundation
import TestSupport

/// nginx and tinyproxy for the proxy and CA tests, and `offline` run with a controlled
/// environment.
///
/// nginx serves the same 1 MiB file at `/proxied/file.bin`, which it answers only when the
/// request came through tinyproxy (its `Via` header), and at `/direct/file.bin`, which it
/// answers only when it did not (403 otherwise), so a test sees from nginx's side too which
/// way a request took.
struct ProxyFixture {
  let folder: TemporaryDirectory
  let nginx: NginxServer
  let proxy: TinyProxy
  let body: Data

  /// The variables curl reads for proxies and CAs: removed from every run's environment
  /// unless the test sets them, so the machine's own settings never leak into a test.
  static let curlVariables = [
    "http_proxy", "HTTP_PROXY", "https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY",
    "no_proxy", "NO_PROXY", "CURL_CA_BUNDLE", "SSL_CERT_FILE", "SSL_CERT_DIR",
  ]

  init(tls: Bool = false, proxyAuth: (user: String, password: String)? = nil) throws {
    folder = try TemporaryDirectory()
    let www = folder.url.appending(path: "www")
    body = TestData.bytes(count: 1 << 20, seed: 13)
    for sub in ["proxied", "direct"] {
      try FileManager.default.createDirectory(
        at: www.appending(path: sub), withIntermediateDirectories: true)
      try body.write(to: www.appending(path: "\(sub)/file.bin"))
    }
    try body.write(to: www.appending(path: "file.bin"))
    let via = TinyProxy.viaName
    nginx = try NginxServer(
      root: www,
      options: .init(
        tls: tls,
        extraLocations: """
          location /proxied/ { if ($http_via !~ "\(via)") { return 403; } }
          location /direct/ { if ($http_via) { return 403; } }
          """))
    try nginx.start()
    proxy = try TinyProxy(basicAuth: proxyAuth)
    try proxy.start()
  }

  var store: URL { folder.url.appending(path: "store") }
  func output(_ name: String = "out.bin") -> String { folder.url.appending(path: name).path }
  func url(_ path: String) -> String { nginx.url(path).absoluteString }
  /// How the proxy logs a forwarded request for `path` on nginx.
  func forwarded(_ path: String) -> String { "GET \(url(path))" }
  /// How the proxy logs a tunnel to nginx.
  var tunnel: String { "CONNECT 127.0.0.1:\(nginx.port)" }

  /// Runs `offline --store STORE ARGUMENTS` with this process's environment less
  /// ``curlVariables``, plus `environment`.
  func offline(_ arguments: [String], environment: [String: String] = [:]) async throws
    -> ProcessRunner.Output
  {
    var clean = ProcessInfo.processInfo.environment
    for name in Self.curlVariables { clean[name] = nil }
    clean.merge(environment) { $1 }
    return try await ProcessRunner.run(
      OfflineBinary.path, ["--store", store.path] + arguments, timeout: 60, environment: clean)
  }

  /// Whether `get` wrote the whole file at `path`.
  func downloaded(_ path: String) -> Bool { FileManager.default.contents(atPath: path) == body }
}
