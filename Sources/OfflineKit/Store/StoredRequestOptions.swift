import Foundation
import OfflineHTTP

/// A content's ``RequestOptions`` as the store's secrets folder keeps them (``SecretStore``):
/// every field, secrets included, as JSON. Version 1; a file of another version, or one
/// that does not decode, is an error naming the file, never a silent default.
struct StoredRequestOptions: Codable, Equatable {
  /// The layout of the file.
  var version: Int
  /// Header fields in order, each as `[name, value]`.
  var headers: [[String]]
  var secretHeaderNames: [String]
  var cookieFile: String?
  var user: String?
  var password: String?
  var netrcFile: String?
  var userAgent: String?
  var referer: String?
  /// The proxy URL as given (it may carry `user:password@`).
  var proxy: String?
  var noProxy: [String]?
  var caFile: String?
  var rateLimit: Int64?
  var locationTrusted: Bool
  /// When the content's URL expires, as the app said (``OfflineSource/urlExpiresAt``).
  var urlExpiresAt: Date?
  /// ``RequestOptions/trustedOrigins`` (`--trust-origin`); absent in files written before
  /// they existed, which trusted none.
  var trustedOrigins: [String]?
  /// ``RequestOptions/secretsOrigin`` when the app set one; absent otherwise (the content's
  /// URL stands for it).
  var secretsOrigin: String?
  /// The content's mirrors (``OfflineSource/mirrors``), as given; absent when it has none
  /// (and in files written before they existed).
  var mirrors: [String]?
  /// The content's peers (``OfflineSource/peers``), as given; absent when it has none.
  var peers: [String]?

  /// The layout this version writes and reads.
  static let currentVersion = 1

  /// The stored form of `options`.
  init(
    _ options: RequestOptions, urlExpiresAt: Date? = nil, mirrors: [URL] = [], peers: [URL] = []
  ) {
    version = Self.currentVersion
    self.peers = peers.isEmpty ? nil : peers.map(\.absoluteString)
    self.mirrors = mirrors.isEmpty ? nil : mirrors.map(\.absoluteString)
    self.urlExpiresAt = urlExpiresAt
    headers = options.headers.map { [$0.name, $0.value] }
    secretHeaderNames = options.secretHeaderNames.sorted()
    cookieFile = options.cookieFile
    user = options.credentials?.user
    password = options.credentials?.password
    netrcFile = options.netrcFile
    userAgent = options.userAgent
    referer = options.referer
    proxy = options.proxy?.url.absoluteString
    noProxy = options.noProxy
    caFile = options.caFile
    rateLimit = options.rateLimit?.bytesPerSecond
    locationTrusted = options.sendsSecretsAcrossRedirects
    trustedOrigins =
      options.trustedOrigins.isEmpty ? nil : options.trustedOrigins.map(\.absoluteString)
    secretsOrigin = options.secretsOrigin?.absoluteString
  }

  /// The options again; nil when a field is not one this version can use (say why in the
  /// thrown error's caller).
  var requestOptions: RequestOptions? {
    guard version == Self.currentVersion, headers.allSatisfy({ $0.count == 2 }) else { return nil }
    var options = RequestOptions()
    for field in headers { options.headers.add(name: field[0], value: field[1]) }
    options.secretHeaderNames = Set(secretHeaderNames)
    options.cookieFile = cookieFile
    if let user {
      guard let credentials = try? Credentials(user: user, password: password ?? "") else {
        return nil
      }
      options.credentials = credentials
    }
    options.netrcFile = netrcFile
    options.userAgent = userAgent
    options.referer = referer
    if let proxy {
      guard let parsed = try? Proxy(parsing: proxy) else { return nil }
      options.proxy = parsed
    }
    options.noProxy = noProxy
    options.caFile = caFile
    options.rateLimit = rateLimit.map { ByteRate(bytesPerSecond: $0) }
    options.sendsSecretsAcrossRedirects = locationTrusted
    for text in trustedOrigins ?? [] {
      guard let origin = URL(string: text) else { return nil }
      options.trustedOrigins.append(origin)
    }
    if let secretsOrigin {
      guard let origin = URL(string: secretsOrigin) else { return nil }
      options.secretsOrigin = origin
    }
    return options
  }
}
