import Foundation
import HLSPlaylist

/// Fetches a playlist through a content's session and parses it: what a download plans
/// from and what `offline info` describes.
struct HLSPlaylistFetch: Sendable {
  /// The largest playlist read.
  static let limit = 16 << 20
  /// The stream's session.
  let session: ContentSession
  /// What a failure names as its destination (the content's folder; empty for none).
  let destination: String
  /// A cap on the session's tries of one fetch; nil for the session's own.
  var maximumAttempts: Int? = nil

  /// The playlist at `url` with the variables it defined: its `EXT-X-DEFINE:QUERYPARAM`
  /// variables come from `url`, its `IMPORT` ones from `variables` (nil for a playlist not
  /// reached through a multivariant playlist).
  ///
  /// - Throws: ``Transfer/Error``: the fetch's, or `invalidMedia` when the body is not a
  ///   valid playlist.
  func playlist(at url: URL, importing variables: [String: String]? = nil)
    async throws(Transfer.Error) -> ParsedPlaylist
  {
    let data = try await session.data(
      from: url, limit: Self.limit, destination: destination, maximumAttempts: maximumAttempts)
    guard let text = String(data: data, encoding: .utf8) else {
      throw failure("\(url.redactedForDisplay) is not a playlist (not UTF-8 text)")
    }
    do {
      return try PlaylistParser.parse(
        text,
        context: PlaylistContext(uri: url.absoluteString, multivariantVariables: variables))
    } catch {
      throw failure("\(url.redactedForDisplay) is not a valid playlist (\(error))")
    }
  }

  /// An `invalidMedia` failure of the stream saying `what`.
  func failure(_ what: String) -> Transfer.Error {
    Transfer.Error(.invalidMedia(what), url: session.url, destination: destination)
  }
}
