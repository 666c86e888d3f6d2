import Foundation
import OfflineHTTP

/// Asks nearby `offline serve`s (``Transfer/Configuration/peers``) what they hold for a
/// transfer's URL, before any byte is fetched from the origin.
///
/// A peer is named by its address, with the service's token as `?token=` when it has one
/// (the link `offline serve` prints): `http://host:8380/?token=…`. The question is
/// `GET /api/by-url?url=ORIGIN` with the token as a bearer token; a peer that holds the file
/// downloaded becomes a mirror preferred to the origin (`/content/<id>/<file>?token=…`), its
/// bytes checked like any mirror's.
enum PeerLookup {
  /// A peer's copy of the file, as a mirror.
  struct Found: Sendable, Equatable {
    /// Where the peer serves the file (with its token).
    var mirror: URL
    /// What the peer told of it.
    var copy: PeerCopy
  }

  /// What one peer answered.
  enum Answer: Sendable, Equatable {
    /// It holds the file.
    case found(Found)
    /// It holds no downloaded file for the URL.
    case none
    /// It could not be asked, or answered something else (a verb phrase saying why:
    /// "could not be reached (…)").
    case unavailable(String)
  }

  /// The most bytes of a peer's answer read: enough for the chunk hashes of a file of
  /// 200 GiB (about 67 bytes a 4 MiB chunk).
  static let answerLimit = 4 << 20

  /// Asks `peer` what it holds for `origin`, through `session` (its transport, never its
  /// secrets: the request goes to the peer with the peer's token alone).
  static func ask(_ peer: URL, for origin: URL, session: ContentSession) async -> Answer {
    guard var parts = URLComponents(url: peer, resolvingAgainstBaseURL: false) else {
      return .unavailable("has an address that cannot be read")
    }
    let token = parts.queryItems?.first { $0.name == "token" }?.value
    parts.path = "/api/by-url"
    parts.queryItems = [URLQueryItem(name: "url", value: origin.absoluteString)]
    parts.percentEncodedQuery = parts.percentEncodedQuery?
      .replacingOccurrences(of: "+", with: "%2B")
    parts.fragment = nil
    guard let lookup = parts.url else {
      return .unavailable("has an address that cannot be read")
    }
    var headers = HTTPHeaders()
    if let token { headers.add(name: "Authorization", value: "Bearer \(token)") }
    let request = HTTPRequest(url: lookup, headers: headers)
    let sink = MemorySink(limit: answerLimit)
    let head: HTTPResponseHead
    do throws(HTTPError) {
      head = try await session.perform(request, delegate: sink)
    } catch {
      return .unavailable("could not be reached (\(error.description))")
    }
    switch head.status {
    case 200:
      guard let copy = try? JSONDecoder().decode(PeerCopy.self, from: sink.data),
        copy.state == OfflineState.downloaded.rawValue, copy.contentPath.hasPrefix("/content/"),
        copy.length >= 0, copy.sha256.map(SHA256.isValidHex) ?? true,
        let mirror = mirrorURL(peer, path: copy.contentPath, token: token)
      else { return .unavailable("gave an answer this version does not read") }
      return .found(Found(mirror: mirror, copy: copy))
    case 404:
      return .none
    case 401, 403:
      return .unavailable("refused the question (HTTP \(head.status): check its token)")
    default:
      return .unavailable("answered HTTP \(head.status)")
    }
  }

  /// `peer`'s URL of `path`, with `token` as `?token=` (the service takes it, then a cookie).
  static func mirrorURL(_ peer: URL, path: String, token: String?) -> URL? {
    guard var parts = URLComponents(url: peer, resolvingAgainstBaseURL: false) else {
      return nil
    }
    parts.percentEncodedPath = path
    parts.queryItems = token.map { [URLQueryItem(name: "token", value: $0)] }
    parts.fragment = nil
    return parts.url
  }
}
