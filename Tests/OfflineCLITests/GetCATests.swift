import Foundation
import TestSupport
import TestTiming
import Testing

/// `offline get` trusts CA certificates the way curl, git, pip and Python find them:
/// `--ca-file`, then `CURL_CA_BUNDLE`, then `SSL_CERT_FILE` / `SSL_CERT_DIR`, then the system's.
/// The origin is nginx over TLS with a fresh self-signed certificate.
@Suite(.ownThreads, .timed) struct GetCATests {
  /// `get`'s usual origin (one file on nginx), over TLS with its certificate at hand.
  struct Setup {
    let served: GetCommandTests.Setup
    let certificate: String
    var folder: TemporaryDirectory { served.folder }
    var nginx: NginxServer { served.nginx }
    var body: Data { served.body }

    init() throws {
      served = try GetCommandTests.Setup(size: 256 << 10, options: .init(tls: true))
      certificate = try #require(served.nginx.certificatePath).path
    }

    var output: String { folder.url.appending(path: "file.bin").path }

    /// Runs `get` of the file with `arguments` added and the environment's CA and proxy
    /// variables replaced by `environment`.
    func get(_ arguments: [String] = [], environment: [String: String] = [:]) async throws
      -> OfflineRun
    {
      var clean = ProcessInfo.processInfo.environment
      for name in ProxyFixture.curlVariables { clean[name] = nil }
      clean.merge(environment) { $1 }
      let store = folder.url.appending(path: "store").path
      return try await InProcessOffline.run(
        ["--store", store, "get", nginx.url("/file.bin").absoluteString, "-o", output]
          + arguments, environment: clean, timeout: 60)
    }

    var downloaded: Bool { FileManager.default.contents(atPath: output) == body }
  }

  @Test func aPrivateCAIsRefusedWithoutAnyTrustSetting() async throws {
    let setup = try Setup()
    let result = try await setup.get()

    #expect(result.status == 1, "\(result.stderrText)")
    #expect(result.stderrText.contains("could not be verified"), "\(result.stderrText)")
    #expect(!FileManager.default.fileExists(atPath: setup.output))
  }

  // Pins: with SSL_CERT_FILE naming the CA, the download failed TLS verification unless
  // --ca-file was given too.
  @Test func aPrivateCAIsTrustedThroughSSLCertFile() async throws {
    let setup = try Setup()
    let result = try await setup.get(environment: ["SSL_CERT_FILE": setup.certificate])

    #expect(result.status == 0, "\(result.stderrText)")
    #expect(setup.downloaded)
  }

  // Pins: CURL_CA_BUNDLE, which the curl tool reads, was ignored.
  @Test func aPrivateCAIsTrustedThroughCurlCABundle() async throws {
    let setup = try Setup()
    let result = try await setup.get(environment: ["CURL_CA_BUNDLE": setup.certificate])

    #expect(result.status == 0, "\(result.stderrText)")
    #expect(setup.downloaded)
  }

  // Pins: SSL_CERT_DIR (a folder of hashed names, as `openssl rehash` makes) was ignored.
  @Test func aPrivateCAIsTrustedThroughSSLCertDir() async throws {
    let setup = try Setup()
    let folder = setup.folder.url.appending(path: "certs")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    try FileManager.default.copyItem(
      atPath: setup.certificate, toPath: folder.appending(path: "origin.pem").path)
    try await ProcessRunner.checked("/usr/bin/openssl", ["rehash", folder.path])
    let result = try await setup.get(environment: ["SSL_CERT_DIR": folder.path])

    #expect(result.status == 0, "\(result.stderrText)")
    #expect(setup.downloaded)
  }

  @Test func curlCABundleComesBeforeSSLCertFile() async throws {
    let setup = try Setup()
    let other = try NginxServer(root: setup.folder.url, options: .init(tls: true))
    let otherCertificate = try #require(other.certificatePath).path
    let result = try await setup.get(environment: [
      "CURL_CA_BUNDLE": otherCertificate, "SSL_CERT_FILE": setup.certificate,
    ])

    #expect(result.status == 1, "\(result.stderrText)")
    #expect(result.stderrText.contains("could not be verified"), "\(result.stderrText)")
  }

  @Test func caFileComesBeforeCurlCABundle() async throws {
    let setup = try Setup()
    let other = try NginxServer(root: setup.folder.url, options: .init(tls: true))
    let otherCertificate = try #require(other.certificatePath).path
    let result = try await setup.get(
      ["--ca-file", setup.certificate], environment: ["CURL_CA_BUNDLE": otherCertificate])

    #expect(result.status == 0, "\(result.stderrText)")
    #expect(setup.downloaded)
  }

  // Pins: a CA file that did not exist gave a TLS failure naming neither the file nor where
  // it was set.
  @Test(arguments: ["--ca-file", "CURL_CA_BUNDLE", "SSL_CERT_FILE", "SSL_CERT_DIR"])
  func aCASettingThatCannotBeReadIsAUsageErrorNamingIt(setting: String) async throws {
    let setup = try Setup()
    let missing = setup.folder.url.appending(path: "no-such-ca.pem").path
    let result =
      await setting == "--ca-file"
      ? try setup.get(["--ca-file", missing]) : try setup.get(environment: [setting: missing])

    #expect(result.status == 64, "\(result.stderrText)")
    #expect(result.stderrText.contains(setting), "\(result.stderrText)")
    #expect(result.stderrText.contains(missing), "\(result.stderrText)")
    #expect(try setup.nginx.accessLog().isEmpty)
  }

  @Test func getHelpStatesTheOrderOfTrustAndTheProxyOptions() async throws {
    let result = try await InProcessOffline.run(["get", "--help"])
    let help = result.stdoutText.replacingOccurrences(of: "\n", with: " ")
      .split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")

    #expect(result.status == 0)
    for text in [
      "--ca-file, then CURL_CA_BUNDLE, then SSL_CERT_FILE and SSL_CERT_DIR, then the system's",
      "--proxy <url>", "--noproxy <hosts>", "http_proxy", "https_proxy", "all_proxy", "no_proxy",
    ] {
      #expect(help.contains(text), "\(text)")
    }
  }
}
