import Foundation

/// nginx serving signed URLs that expire, as S3, CloudFront or a CDN token does: its
/// `secure_link` module checks `?md5=…&expires=…` on every request under `/signed/`
/// (`secure_link_md5 "$secure_link_expires$uri <secret>"`), and a token in the path under
/// `/t/` (``pathSignedURL(_:expiresIn:)``), answering 403 for a wrong
/// signature and 410 for an expired one, at most ``rate`` per connection (`limit_rate`),
/// so a download lasts long enough for its URL to expire.
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

  /// Writes `files` (name → bytes) under `/signed/` and starts nginx; `rate` is nginx's
  /// `limit_rate` for them (`"1m"`), `extraLocations` go into its `server` block.
  public init(files: [String: Data], rate: String = "1m", extraLocations: String = "") throws {
    root = try TemporaryDirectory(prefix: "offlinekit-signed")
    let folder = root.url.appendingPathComponent("signed", isDirectory: true)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    for (name, bytes) in files {
      let file = folder.appendingPathComponent(name)
      try FileManager.default.createDirectory(
        at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
      try bytes.write(to: file)
    }
    let locations = """
      location ^~ /signed/ {
        secure_link $arg_md5,$arg_expires;
        secure_link_md5 "$secure_link_expires$uri \(Self.secret)";
        if ($secure_link = "") { return 403; }
        if ($secure_link = "0") { return 410; }
        limit_rate \(rate);
      }
      location ~ ^/t/(?<token>[^/]+)/(?<expiry>[0-9]+)(?<rest>/.+)$ {
        secure_link $token,$expiry;
        secure_link_md5 "$secure_link_expires \(Self.secret)";
        if ($secure_link = "") { return 403; }
        if ($secure_link = "0") { return 410; }
        limit_rate \(rate);
        rewrite ^ $rest break;
      }
      \(extraLocations)
      """
    server = try NginxServer(root: root.url, options: .init(extraLocations: locations))
    try server.start()
  }

  /// The URL of `path` (`/signed/…`) signed to expire `seconds` from now (negative: expired).
  public func signedURL(_ path: String, expiresIn seconds: Double) throws -> URL {
    let expires = Int(Date().timeIntervalSince1970 + seconds)
    return server.url(
      "\(path)?md5=\(try Self.signature(path, expires: expires))&expires=\(expires)")
  }

  /// The URL of `path` (any file in the root, such as `/hls/index.m3u8`) behind a token in
  /// its path, `/t/<token>/<expires>/hls/index.m3u8`, as CDN path tokens are: relative URIs
  /// in a playlist carry the token on to its segments and keys, and a fresh token changes
  /// every URL of the stream. Served at ``init(files:rate:extraLocations:)``'s `rate` too.
  public func pathSignedURL(_ path: String, expiresIn seconds: Double) throws -> URL {
    let expires = Int(Date().timeIntervalSince1970 + seconds)
    return server.url("/t/\(try Self.signature("", expires: expires))/\(expires)\(path)")
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
