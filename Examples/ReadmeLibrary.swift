import Foundation
import OfflineKit

// The README's library samples beyond the first two: a stream behind a token handed to a
// player, a view model, and the cache. Compiled by every build; ReadmeSamplesTests checks
// that the README shows exactly these bodies.

/// A stream behind a bearer token: the variant, audio and subtitles chosen, the token sent
/// with every playlist, segment and key, and the offline playlist handed to a player.
func readmeStreamSource(manager: OfflineManager, playlistURL: URL, token: String) async throws {
  var options = RequestOptions()
  options.headers.add(name: "Authorization", value: "Bearer \(token)")  // a secret: never shown
  let source = OfflineSource(url: playlistURL, title: "Lecture 1", requestOptions: options)
  let lecture = try await manager.content(for: source)
  var config = DownloadConfiguration()
  config.stream = StreamConfiguration(variant: .highest, audio: .languages(["en"]), subtitles: .all)
  try await lecture.download(config)
  _ = try await lecture.waitUntilDownloaded()
  // Only what was downloaded (index.m3u8), for a player that must not touch the network:
  let playlist = try await lecture.playbackURL(restrictedToAssetCache: true)
  print("Play", playlist.path)  // AVPlayer(url: playlist), or ffmpeg -i, or mpv
}

/// A view model that starts in the true state and follows every event.
@MainActor
func readmeContentModel(content: OfflineContent) async throws {
  let model = try await OfflineContentModel(content: content)
  // A SwiftUI view reads these and redraws when they change:
  print(model.state, model.fractionCompleted ?? 0, model.waitReason as Any)
  if !model.isDownloaded { await model.download() }
}
