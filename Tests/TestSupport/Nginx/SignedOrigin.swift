import Foundation

/// nginx serving signed URLs that expire, as S3, CloudFront or a CDN token does: its
/// `secure_link` module checks `?md5=…&expires=…` on every request under `/signed/`
/// (`secure_link_md5 "$secure_link_expires$uri <secret>"`), and a token in the path under
/// `/t/` (``pathSignedURL(_:expiresIn:)``), answering 403 for a wrong
/// signature and 410 for an expired one, at most ``rate`` per connection (`limit_rate`),
/// so a download lasts long enough for its URL to expire. A URL signed with `fullSpeed`
/// (`&fast=1` in the query, `/fast/` instead of `/t/` in the path) is served without that
/// limit, as a fresh token from another edge may be: what is left after a refresh comes at
/// once, and a test waits only for the expiry. ``expireNow(_:)`` makes a token expire at
/// the moment a test chooses, as a revoked token does: the origin answers 410 from then on,
/// without a test waiting for whole seconds of nginx's clock.
///
/// nginx checks the expiry only when a request starts: a response under way when its URL
/// expires is not cut, so a test makes a later request (a resume, a range) hit the expiry.
///
/// ```swift
/// let origin = try SignedOrigin(files: ["big.bin": body])
/// let url = try origin.signedURL("/signed/big.bin", expiresIn: 2)
/// ```
public final class SignedOrigin: Sendable {
  /// The secret the signatures are made with.
  public static let secret = "l1nk-s3cret"

  /// The document root; files are under `signed/`.
  public let root: TemporaryDirectory
  /// The server.
  public let server: NginxServer
  /// One empty file per token expired by ``expireNow(_:)``, named as the token.
  private let expired: TemporaryDirectory

  /// Writes `files` (name → bytes) under `/signed/` and starts nginx; `rate` is nginx's
  /// `limit_rate` for them (`"1m"`), `extraLocations` go into its `server` block.
  public init(files: [String: Data], rate: String = "1m", extraLocations: String = "") throws {
    root = try TemporaryDirectory(prefix: "offlinekit-signed")
    expired = try TemporaryDirectory(prefix: "offlinekit-expired")
    let folder = root.url.appendingPathComponent("signed", isDirectory: true)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    for (name, bytes) in files {
      let file = folder.appendingPathComponent(name)
      try FileManager.default.createDirectory(
        at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
      try bytes.write(to: file)
    }
    let httpConfiguration = """
      map $request_uri $signed_rate {
        ~^/fast/ 0;
        ~[?&]fast=1(&|$) 0;
        default \(rate);
      }
      """
    let locations = """
      location ^~ /signed/ {
        secure_link $arg_md5,$arg_expires;
        secure_link_md5 "$secure_link_expires$uri \(Self.secret)";
        if ($secure_link = "") { return 403; }
        if ($secure_link = "0") { return 410; }
        if (-f "\(expired.url.path)/$arg_md5") { return 410; }
        limit_rate $signed_rate;
      }
      location ~ ^/(t|fast)/(?<token>[^/]+)/(?<expiry>[0-9]+)(?<rest>/.+)$ {
        secure_link $token,$expiry;
        secure_link_md5 "$secure_link_expires \(Self.secret)";
        if ($secure_link = "") { return 403; }
        if ($secure_link = "0") { return 410; }
        if (-f "\(expired.url.path)/$token") { return 410; }
        limit_rate $signed_rate;
        rewrite ^ $rest break;
      }
      \(extraLocations)
      """
    server = try NginxServer(
      root: root.url,
      options: .init(extraLocations: locations, httpConfiguration: httpConfiguration))
    try server.start()
  }

  /// The URL of `path` (`/signed/…`) signed to expire `seconds` from now (negative: expired),
  /// served at the origin's rate, or at full speed when `fullSpeed`.
  public func signedURL(_ path: String, expiresIn seconds: Double, fullSpeed: Bool = false) throws
    -> URL
  {
    let expires = Int(Date().timeIntervalSince1970 + seconds)
    let fast = fullSpeed ? "&fast=1" : ""
    return server.url(
      "\(path)?md5=\(try Self.signature(path, expires: expires))&expires=\(expires)\(fast)")
  }

  /// The URL of `path` (any file in the root, such as `/hls/index.m3u8`) behind a token in
  /// its path, `/t/<token>/<expires>/hls/index.m3u8`, as CDN path tokens are: relative URIs
  /// in a playlist carry the token on to its segments and keys, and a fresh token changes
  /// every URL of the stream. Served at ``init(files:rate:extraLocations:)``'s `rate` too,
  /// or at full speed under `/fast/` when `fullSpeed`.
  public func pathSignedURL(_ path: String, expiresIn seconds: Double, fullSpeed: Bool = false)
    throws -> URL
  {
    let expires = Int(Date().timeIntervalSince1970 + seconds)
    let lane = fullSpeed ? "fast" : "t"
    return server.url("/\(lane)/\(try Self.signature("", expires: expires))/\(expires)\(path)")
  }

  /// Makes `url`'s token (from ``signedURL(_:expiresIn:fullSpeed:)`` or
  /// ``pathSignedURL(_:expiresIn:fullSpeed:)``) expire now: every request that starts from
  /// now on with it is answered 410, as it is once a token's expiry passes. Responses under
  /// way go on, as they do at a real expiry.
  ///
  /// - Throws: `TestSupportError.unexpectedOutput` when `url` carries no token of this
  ///   origin's; the file manager's error.
  public func expireNow(_ url: URL) throws {
    let query = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems
    let parts = url.pathComponents
    let token =
      query?.first { $0.name == "md5" }?.value
      ?? parts.firstIndex { $0 == "t" || $0 == "fast" }.flatMap {
        $0 + 1 < parts.count ? parts[$0 + 1] : nil
      }
    guard let token, !token.isEmpty, !token.contains("/"), !token.hasPrefix(".") else {
      throw TestSupportError.unexpectedOutput(
        command: "SignedOrigin.expireNow", output: url.absoluteString)
    }
    try Data().write(to: expired.file(token))
  }

  /// nginx's `secure_link_md5` of `path` expiring at `expires`: the MD5 of
  /// `"<expires><path> <secret>"` in base64url without padding.
  public static func signature(_ path: String, expires: Int) throws -> String {
    let text = "\(expires)\(path) \(secret)"
    // A few milliseconds of openssl that depend on nothing in this process: a blocking run
    // keeps the URL helpers usable from initializers and synchronous code.
    let output = try ProcessRunner.blocking(
      "/bin/sh",
      ["-c", "printf '%s' \"$1\" | openssl md5 -binary | openssl base64 -A", "sh", text])
    return output.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
      .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
      .replacingOccurrences(of: "=", with: "")
  }

  /// Body bytes nginx sent for requests of `path` (any query), over every response.
  public func bytesSent(for path: String) throws -> Int64 {
    try server.accessLog().filter { $0.uri.hasPrefix(path) }.map(\.bodyBytesSent).reduce(0, +)
  }
}
