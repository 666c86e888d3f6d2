import Foundation
import OfflineKit

/// `/content/<id>/<path>`: the files of one downloaded content, for players. A content in
/// `downloaded` is served, and an HLS stream that is `downloading` or `suspended` too, read
/// through: entered through `index-through.m3u8`, the whole presentation by local names,
/// whose pieces not on disk are fetched ahead of the queue when a player asks for them
/// (``PieceResponder``); with `?offline=1`, through its growing playlist of what is on disk
/// (`index-partial.m3u8`, which players reload while the download goes on; see
/// `OfflineContent.playbackURL(restrictedToAssetCache:)`). A file that is `downloading` or
/// `suspended` is read through as it lands (``ReadThroughResponder``; `?offline=1` serves
/// only what is on disk). A DASH presentation that is `downloading` or `suspended` is read
/// through the same way, entered through `index-through.mpd` (or `index-partial.mpd`, what
/// is on disk, with `?offline=1`).
/// Only regular files inside its folder that play are served (``ServedFiles``: never its
/// bookkeeping, nor a part file being written), or for a flat file in the shared `files/`
/// folder only that file; whatever the path says, nothing outside is reachable. Nothing
/// served can act in the service's origin (``ContentHeaders``).
struct ContentRoute: Sendable {
  let manager: OfflineManager

  /// Answers `request`, whose path segments after `content` are `segments` (decoded and
  /// free of `..`, see ``HTTPRequest/safeSegments``).
  func respond(to request: HTTPRequest, segments: [String]) async -> HTTPResponse {
    guard request.isSafe else {
      return .text(405, "Content is read-only.", headers: [("Allow", "GET, HEAD")])
    }
    guard let id = segments.first else { return .text(404, "Name a content: /content/<id>/.") }
    guard let snapshot = try? await manager.snapshot(id: id) else {
      return .text(404, "There is no content '\(RequestGuard.printable(id))'.")
    }
    let entry = snapshot.fileURL.lastPathComponent
    let isStream = entry == "index.m3u8" || entry == "index.mpd"
    let isOnItsWay = snapshot.state == .downloading || snapshot.state == .suspended
    let onItsWay = isOnItsWay && isStream
    guard snapshot.state == .downloaded || isOnItsWay else {
      return .text(
        409,
        "Content '\(id)' is \(snapshot.state.phrase): only content downloaded, downloading or"
          + " paused is served.")
    }
    if isOnItsWay, !isStream {
      // A file on its way: read through (``ReadThroughResponder``).
      let rest = Array(segments.dropFirst())
      guard !rest.isEmpty else {
        let encoded = entry.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? entry
        let query = request.query["offline"] == "1" ? "?offline=1" : ""
        return .redirect(to: "/content/\(id)/\(encoded)\(query)", status: 302)
      }
      guard rest == [entry], let content = try? await manager.content(id: id) else {
        return .text(404, "No such file.")
      }
      return await ReadThroughResponder.respond(
        to: request, content: content, restricted: request.query["offline"] == "1",
        headers: ContentHeaders.of(rest))
    }
    let folder = snapshot.fileURL.deletingLastPathComponent()
    let rest = Array(segments.dropFirst())
    let restricted = request.query["offline"] == "1"
    guard !rest.isEmpty else {
      let name: String
      switch (onItsWay, entry, restricted) {
      case (false, _, _): name = entry
      case (true, "index.m3u8", true): name = Self.growingPlaylist
      case (true, "index.m3u8", false): name = Self.throughPlaylist
      case (true, _, true): name = Self.partialManifest
      case (true, _, false): name = Self.throughManifest
      }
      let encoded = name.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? name
      return .redirect(to: "/content/\(id)/\(encoded)", status: 302)
    }
    // A flat file shares `files/` with other contents' files: only its own name is served.
    let own = manager.directory.appending(path: "content").appending(path: id).standardized
    let ownFile = snapshot.fileURL.lastPathComponent
    guard folder.standardized.path == own.path || rest == [ownFile],
      ServedFiles.isServed(rest, ownFile: ownFile)
    else { return .text(404, "No such file.") }
    // A player that opened a stream on its way reloads or reopens the read-through
    // playlists once it is complete: they are the ordinary ones then.
    let complete = Self.ordinary(rest).flatMap { snapshot.state == .downloaded ? $0 : nil }
    guard let path = Self.resolve(complete ?? rest, in: folder) else {
      // A stream's piece that is not a file of its own: not on disk yet, or in a pack.
      guard isStream, rest.last != ownFile, let content = try? await manager.content(id: id)
      else { return .text(404, "No such file.") }
      if onItsWay, !restricted, Self.throughPlaylists.contains(rest.last ?? "") {
        // Not written yet: a stream queued behind others starts for the player.
        guard let path = await Self.playlist(rest, in: folder, of: content) else {
          return .text(404, "No such file: the download has not written it in time.")
        }
        return FileResponder.respond(path: path, to: request, headers: ContentHeaders.of(rest))
      }
      return await PieceResponder.respond(
        to: request, content: content, local: rest.joined(separator: "/"), in: folder,
        restricted: restricted, headers: ContentHeaders.of(rest))
    }
    return FileResponder.respond(path: path, to: request, headers: ContentHeaders.of(rest))
  }

  /// The playlist of an HLS stream on its way that `/content/<id>/?offline=1` leads to: the
  /// segments on disk, growing while it downloads.
  static let growingPlaylist = PlaybackEntryNames.partialPlaylist
  /// The playlist of an HLS stream on its way that `/content/<id>/` leads to: the whole
  /// presentation, read through.
  static let throughPlaylist = PlaybackEntryNames.throughPlaylist
  /// The MPD of a DASH presentation on its way that `/content/<id>/` leads to: the whole
  /// presentation, read through.
  static let throughManifest = PlaybackEntryNames.throughManifest
  /// The MPD of a DASH presentation on its way that `/content/<id>/?offline=1` leads to: what
  /// is on disk, rewritten while it downloads.
  static let partialManifest = PlaybackEntryNames.partialManifest
  /// The names of the read-through playlists and MPD, at the top of a stream's folder or in
  /// a rendition's.
  static let throughPlaylists: Set<String> = [
    throughPlaylist, PlaybackEntryNames.throughMediaPlaylist, throughManifest,
  ]
  /// How long a request for a read-through playlist waits for a download to write it.
  static let playlistPatience: Duration = .seconds(15)

  /// The read-through playlist `segments` of `content`, which its download writes within a
  /// second of starting: the content starts now if it waits in the queue, and this waits
  /// up to ``playlistPatience`` for the file.
  private static func playlist(_ segments: [String], in folder: URL, of content: OfflineContent)
    async -> String?
  {
    await content.startForPlayback()
    let clock = ContinuousClock()
    let deadline = clock.now + playlistPatience
    while clock.now < deadline {
      try? await Task.sleep(for: .milliseconds(100))
      if let path = resolve(segments, in: folder) { return path }
      // Complete before it wrote them (a short stream): the ordinary playlists.
      if let ordinary = ordinary(segments), let path = resolve(ordinary, in: folder) {
        return path
      }
    }
    return nil
  }

  /// The ordinary offline playlist a read-through one becomes once the stream is complete
  /// (`index.m3u8`, a rendition's `playlist.m3u8`); nil for another name.
  static func ordinary(_ segments: [String]) -> [String]? {
    switch segments.last {
    case throughPlaylist: return segments.dropLast() + ["index.m3u8"]
    case PlaybackEntryNames.throughMediaPlaylist: return segments.dropLast() + ["playlist.m3u8"]
    case throughManifest: return segments.dropLast() + ["index.mpd"]
    default: return nil
    }
  }

  /// The real path of `segments` inside `folder`, or nil when a name is hidden, the file is
  /// missing, or its real path (links followed) leaves the folder.
  static func resolve(_ segments: [String], in folder: URL) -> String? {
    guard segments.allSatisfy({ !$0.hasPrefix(".") }) else { return nil }
    guard let base = realPath(folder.path) else { return nil }
    guard let target = realPath(base + "/" + segments.joined(separator: "/")) else { return nil }
    return target.hasPrefix(base + "/") ? target : nil
  }

  private static func realPath(_ path: String) -> String? {
    guard let resolved = realpath(path, nil) else { return nil }
    defer { free(resolved) }
    return String(cString: resolved)
  }
}
