import Foundation
import HLSPlaylist

/// The content steering manifest of an HLS stream (RFC 8216bis §7.2): the JSON at the
/// master playlist's `EXT-X-CONTENT-STEERING` `SERVER-URI`, whose `PATHWAY-PRIORITY` orders
/// the pathways (CDNs) a client tries. Asked once when a download starts; a manifest that
/// does not answer, is not JSON or names no pathway leaves the playlist's own order (its
/// `PATHWAY-ID` first). A later `RELOAD-URI` and `TTL` are not followed: a VOD download is
/// short, and each piece fails over on its own (``StreamFailover``).
struct HLSSteering {
  /// The largest steering manifest read.
  static let limit = 64 << 10

  /// The pathways of `data` in priority order: its `PATHWAY-PRIORITY` strings, at most 64;
  /// empty when it is not a steering manifest of version 1.
  static func priority(of data: Data) -> [String] {
    guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
      (object["VERSION"] as? Int) == 1,
      let list = object["PATHWAY-PRIORITY"] as? [Any]
    else { return [] }
    return Array(list.compactMap { $0 as? String }.filter { !$0.isEmpty }.prefix(64))
  }

  /// `entry` steered by its steering manifest when it is a master playlist with a
  /// `SERVER-URI` over http(s) (a `data:` URI or another scheme is not followed); `entry`
  /// as it is otherwise. One try, no retries: the order only says which source goes first.
  static func steered(_ entry: ParsedPlaylist, from url: URL, session: ContentSession) async
    -> ParsedPlaylist
  {
    guard case .master(let master) = entry.playlist, let steering = master.contentSteering,
      let server = try? HLSURI.resolve(steering.serverURI, against: url, what: "steering")
    else { return entry }
    guard
      let data = try? await session.data(
        from: server, limit: limit, destination: "", maximumAttempts: 1)
    else { return entry }
    var result = entry
    result.playlist = .master(master.steered(by: priority(of: data)))
    return result
  }
}
