import Foundation

/// A live HLS stream whose audio is a rendition of its own, for end-to-end tests of
/// recording one: two ``LiveOrigin``s publishing in step on one schedule (the variant's and
/// the English audio rendition's, each the same ffmpeg fixture), under a multivariant
/// playlist that the variant's server answers at ``masterURL``.
///
/// ```swift
/// let stream = try await LiveRenditionOrigins(.init(segmentCount: 8))
/// try stream.start()
/// defer { stream.stop() }
/// ```
public final class LiveRenditionOrigins: Sendable {
  /// The variant's origin (its playlist is the master's variant, `live.m3u8`).
  public let video: LiveOrigin
  /// The audio rendition's origin (named by the master with its absolute URL).
  public let audio: LiveOrigin

  /// The path of the multivariant playlist on the variant's server.
  public static let masterPath = "/renditions.m3u8"

  /// Makes both origins (nothing published before ``start()``) and the master playlist.
  ///
  /// - Throws: `TestSupportError` when ffmpeg or a socket fail.
  public init(_ schedule: LiveOrigin.Schedule) async throws {
    video = try await LiveOrigin(schedule)
    audio = try await LiveOrigin(schedule)
    let text = """
      #EXTM3U
      #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aud",NAME="English",LANGUAGE="en",DEFAULT=YES,\
      AUTOSELECT=YES,URI="\(audio.url.absoluteString)"
      #EXT-X-STREAM-INF:BANDWIDTH=100000,RESOLUTION=128x72,AUDIO="aud"
      live.m3u8

      """
    video.server.setRoute(
      Self.masterPath,
      .status(
        code: 200, headers: [("Content-Type", "application/vnd.apple.mpegurl")],
        body: Data(text.utf8)))
  }

  /// The multivariant playlist's URL.
  public var masterURL: URL { video.server.url(Self.masterPath) }

  /// The schedule both publish on.
  public var schedule: LiveOrigin.Schedule { video.schedule }

  /// Starts publishing on both.
  ///
  /// - Throws: `TestSupportError.systemCall` when a thread cannot start.
  public func start() throws {
    try video.start()
    try audio.start()
  }

  /// Stops both. Safe to call more than once.
  public func stop() {
    video.stop()
    audio.stop()
  }
}
