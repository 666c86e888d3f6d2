import Foundation

/// Folders of an nginx server that answer only requests carrying a credential, as real
/// sources do: put files (or an HLS stream) under the folder and request them through it.
///
/// | folder | answers only | otherwise |
/// |---|---|---|
/// | `/bearer/` | `Authorization: Bearer <token>` (a `map` on `$http_authorization`) | 401 |
/// | `/basic/` | HTTP Basic as ``user`` / ``password`` (`auth_basic`, htpasswd from `openssl passwd -apr1`) | 401 |
/// | `/cookie/` | the cookie ``cookieName`` = ``cookieValue``; every `.m3u8` in it sets that cookie and needs none | 403 |
/// | `/referer/` | `Referer: <referer>` | 403 |
/// | `/header/` | `<headerName>: <headerValue>` | 403 |
///
/// `/cookie/login` answers 204 and sets the cookie. Every value holds `s3cret`, so a test
/// can look for it in output that must not show it.
public enum NginxGates {
  /// The bearer token `/bearer/` wants.
  public static let token = "t0ken-s3cret"
  /// The Basic user `/basic/` wants.
  public static let user = "ana"
  /// The Basic password `/basic/` wants.
  public static let password = "pa55-s3cret"
  /// The cookie `/cookie/` wants.
  public static let cookieName = "session"
  /// Its value.
  public static let cookieValue = "c00kie-s3cret"
  /// The `Referer` `/referer/` wants.
  public static let referer = "https://example.com/player"
  /// The header `/header/` wants.
  public static let headerName = "X-Api-Key"
  /// Its value.
  public static let headerValue = "k3y-s3cret"

  /// ``password`` hashed for htpasswd by `openssl passwd -apr1`, made once per process (a
  /// short blocking run of a tool that depends on nothing here, so `options` stays
  /// synchronous).
  private static let passwordHash = Result {
    try ProcessRunner.blocking("/usr/bin/openssl", ["passwd", "-apr1", password])
      .stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
  }

  /// Server options with the gated folders, writing the htpasswd file into `folder` (not the
  /// document root). `options` gives the rest; its `httpConfiguration` and `extraLocations`
  /// are kept after the gates'.
  public static func options(
    htpasswdIn folder: URL, adding options: NginxServer.Options = .init()
  ) throws -> NginxServer.Options {
    let htpasswd = folder.appendingPathComponent("htpasswd")
    let hash = try passwordHash.get()
    try Data("\(user):\(hash)\n".utf8).write(to: htpasswd)
    var options = options
    options.httpConfiguration =
      """
      map $http_authorization $offlinekit_bearer { "Bearer \(token)" 1; default 0; }
      \(options.httpConfiguration)
      """
    let cookie = "\(cookieName)=\(cookieValue); Path=/cookie/"
    options.extraLocations =
      """
      location ^~ /bearer/ { if ($offlinekit_bearer = 0) { return 401; } }
      location ^~ /basic/ { auth_basic "OfflineKit"; auth_basic_user_file "\(htpasswd.path)"; }
      location = /cookie/login { add_header Set-Cookie "\(cookie)"; return 204; }
      location ^~ /cookie/ {
        location ~ \\.m3u8$ { add_header Set-Cookie "\(cookie)"; }
        if ($cookie_\(cookieName) != "\(cookieValue)") { return 403; }
      }
      location ^~ /referer/ { if ($http_referer != "\(referer)") { return 403; } }
      location ^~ /header/ {
        if ($http_\(headerName.lowercased().replacingOccurrences(of: "-", with: "_")) != "\(headerValue)") {
          return 403;
        }
      }
      \(options.extraLocations)
      """
    return options
  }
}
