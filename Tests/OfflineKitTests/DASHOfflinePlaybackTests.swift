import DASHManifest
import Foundation
import OfflineHTTP
import OfflineStore
import TestSupport
import TestTiming
import Testing

@testable import OfflineKit

/// Issue 36, item 1: an offline copy with ten segments or more per stream decodes to its end
/// in ffmpeg, for every kind of input. Before, `index.mpd` listed each Representation as a
/// `SegmentList`, and ffmpeg 5.1 decoded only its first two segments (40 video frames of
/// 200, no error) when a segment held 20 video frames; the fixtures of the other suites had
/// two segments per stream, so nothing saw it.
///
/// Each stream of the copy, decoded from disk with the origin stopped, must give the frames
/// of the media the origin's manifest addresses (its init section and segments joined,
/// decoded by the MP4 demuxer): the same count, the same MD5 frame by frame. Where ffmpeg
/// 5.1 reads the origin itself right (a `$Number$` template), the copy must also decode like
/// the origin over http; where it does not (a `SegmentList` or `$Time$` origin: it skips the
/// first segment when `startNumber` is 1; a `$Number$` origin with `@duration` only: it also
/// decodes a chunk past what the manifest addresses), the joined media is the reference.
@Suite(.serialized, .enabled(if: FFmpeg.isAvailable, "ffmpeg is not installed"), .timed)
struct DASHOfflinePlaybackTests {
  /// The streams of each Period: the video and the audio Representation.
  static let streams = [(adaptationSet: 0, stream: "v:0"), (adaptationSet: 1, stream: "a:0")]

  @Test(arguments: DASHPlaybackFixture.allCases)
  func anOfflineCopyDecodesToItsEndLikeTheMediaItsOriginAddresses(
    _ kind: DASHPlaybackFixture
  ) async throws {
    let origin = try await DASHOrigin(playback: kind)
    let store = try DASHStore()
    let outcome = try await store.download(origin.url).run()
    let source = try MPDParser.parse(Data(contentsOf: origin.entryFile))
    var overHTTP: [String: [String]] = [:]
    for stream in kind == .timeline ? ["v:0", "a:0"] : kind == .number ? ["v:0"] : [] {
      overHTTP[stream] = try await FFmpeg.frameMD5s(origin.url.absoluteString, stream: stream)
        .hashes
    }
    origin.nginx.stop(graceful: false)
    let copy = try MPDParser.parse(Data(contentsOf: outcome.index))
    #expect(copy.periods.count == source.periods.count)
    let expectedVideoFrames = DASHPlaybackFixture.periodSeconds * DASHPlaybackFixture.frameRate
    for period in source.periods.indices {
      let offline =
        source.periods.count == 1
        ? outcome.index.path
        : try Self.periodAlone(period, of: copy, in: outcome.index.deletingLastPathComponent())
      for (set, stream) in Self.streams {
        let path = RepresentationPath(period: period, adaptationSet: set, representation: 0)
        let listing = try SegmentResolver().segments(
          for: path, in: source, manifestURL: origin.entryFile)
        #expect(listing.segments.count >= 10 || listing.index != nil, "\(kind) \(path)")
        let expected = try await Self.addressedFrames(listing, stream: stream, in: origin.www)
        let decoded = try await FFmpeg.frameMD5s(offline, stream: stream)
        #expect(decoded.errors.isEmpty, "\(kind) period \(period) \(stream): \(decoded.errors)")
        #expect(
          decoded.hashes.count == expected.count,
          "\(kind) period \(period) \(stream): \(decoded.hashes.count) frames of \(expected.count)")
        #expect(
          decoded.hashes == expected, "\(kind) period \(period) \(stream) decodes differently")
        if stream == "v:0" { #expect(expected.count == expectedVideoFrames) }
        if let origin = overHTTP[stream] {
          #expect(decoded.hashes == origin, "\(kind) \(stream) decodes unlike the origin")
        }
        if stream == "v:0", MPV.isAvailable {
          let played = try await MPV.videoFrameMD5s(offline)
          #expect(played.hashes == expected, "\(kind) period \(period): mpv \(played.errors)")
        }
      }
    }
  }

  /// A copy written before issue 36, its `index.mpd` a `SegmentList` of the same files,
  /// still names only files that are there; a rerun (what `repair` does) fetches nothing but
  /// the manifest and rewrites it as a `SegmentTemplate` that decodes to the end.
  @Test func aCopyWithASegmentListManifestIsRewrittenWithoutFetchingASegmentAgain()
    async throws
  {
    let origin = try await DASHOrigin(playback: .timeline)
    let store = try DASHStore()
    let first = try await store.download(origin.url).run()
    let folder = first.index.deletingLastPathComponent()
    var old = try MPDParser.parse(Data(contentsOf: first.index))
    for path in old.representationPaths {
      let listing = try SegmentResolver().segments(for: path, in: old, manifestURL: first.index)
      let relative = { (url: URL) in String(url.path.dropFirst(folder.path.count + 1)) }
      for name in listing.segments.map({ relative($0.url) }) {
        #expect(FileManager.default.fileExists(atPath: folder.appending(path: name).path))
      }
      let list = SegmentList(
        timescale: listing.timescale,
        initialization: listing.initialization.map { Initialization(sourceURL: relative($0.url)) },
        timeline: old.periods[0].adaptationSets[path.adaptationSet].representations[0]
          .segmentInfo.template?.timeline,
        segmentURLs: listing.segments.map { SegmentURL(media: relative($0.url)) })
      old.periods[0].adaptationSets[path.adaptationSet].representations[0].segmentInfo =
        SegmentInformation(list: list)
    }
    try MPDWriter.write(old).write(to: first.index, atomically: true, encoding: .utf8)
    let before = try await origin.nginx.accessLog(minimumCount: 1).count
    let again = try await store.download(origin.url).run()
    let after = try await origin.nginx.accessLog(minimumCount: before + 1).dropFirst(before)
    #expect(after.map(\.uri) == ["/manifest.mpd"])
    origin.nginx.stop(graceful: false)
    let text = try String(contentsOf: again.index, encoding: .utf8)
    #expect(text.contains("startNumber=\"0\" initialization=\"p0/a0-r0/init.mp4\""))
    #expect(text.contains("media=\"p0/a0-r0/s$Number%05d$.m4s\""))
    #expect(!text.contains("SegmentURL"))
    let decoded = try await FFmpeg.frameMD5s(again.index.path, stream: "v:0")
    #expect(decoded.errors.isEmpty, "\(decoded.errors)")
    #expect(
      decoded.hashes.count == DASHPlaybackFixture.periodSeconds * DASHPlaybackFixture.frameRate)
  }

  /// Issue 36, item 1: a stock player given the offline manifest by a relative path, as in
  /// `ffmpeg -i show/index.mpd` or `mpv show/index.mpd`, decodes it to the end. Without a
  /// `BaseURL` ffmpeg 5.1 put the manifest's folder in front of each name twice
  /// (`show/show/p0/a0-r0/init.mp4`) and opened nothing; mpv failed the same way.
  @Test func aCopyOpenedByARelativePathDecodesToItsEnd() async throws {
    let origin = try await DASHOrigin(playback: .timeline)
    let store = try DASHStore()
    let outcome = try await store.download(origin.url).run()
    origin.nginx.stop(graceful: false)
    let root = outcome.index.deletingLastPathComponent().deletingLastPathComponent().path
    let relative = outcome.index.path.dropFirst(root.count + 1)
    let frames = DASHPlaybackFixture.periodSeconds * DASHPlaybackFixture.frameRate
    let script = #"cd "$1" && shift && exec "$@""#
    let ffmpeg = try await ProcessRunner.run(
      "/bin/sh",
      [
        "-c", script, "sh", root, FFmpeg.ffmpegPath ?? "ffmpeg", "-nostdin", "-v", "error",
        "-i", String(relative), "-map", "0:v:0", "-f", "framemd5", "-",
      ], timeout: 120)
    let hashes = ffmpeg.stdoutText.split(separator: "\n").filter { !$0.hasPrefix("#") }
    #expect(ffmpeg.stderrText.isEmpty, "\(ffmpeg.stderrText)")
    #expect(hashes.count == frames)
    if let mpv = MPV.path {
      let played = try await ProcessRunner.run(
        "/bin/sh",
        [
          "-c", script, "sh", root, mpv, "--no-config", "--really-quiet", "--no-audio",
          "--of=framemd5", "--ovc=rawvideo", "--o=frames.md5", String(relative),
        ], timeout: 120)
      #expect(played.status == 0, "\(played.stderrText)")
      let text = (try? String(contentsOfFile: root + "/frames.md5", encoding: .utf8)) ?? ""
      #expect(text.split(separator: "\n").filter { !$0.hasPrefix("#") }.count == frames)
    }
  }

  /// The MD5 of each frame of `listing`'s init section and segments joined in one file, as
  /// the MP4 demuxer decodes it: the media the manifest addresses.
  static func addressedFrames(
    _ listing: RepresentationSegments, stream: String, in folder: TemporaryDirectory
  ) async throws -> [String] {
    var listing = listing
    if let index = listing.index, let range = index.byteRange {
      listing = try listing.applying(SegmentIndex.parse([UInt8](read(index.url, range))))
    }
    let references = (listing.initialization.map { [$0] } ?? []) + listing.segments
    let decoded = try await FFmpeg.frameMD5s(
      ofJoined: references.map { try read($0.url, $0.byteRange) },
      video: stream.hasPrefix("v"), in: folder.url)
    #expect(decoded.errors.isEmpty, "joined \(stream): \(decoded.errors)")
    return decoded.hashes
  }

  /// The bytes of local file `url`, or of `range` of it.
  static func read(_ url: URL, _ range: ByteRange?) throws -> Data {
    let data = try Data(contentsOf: url)
    guard let range else { return data }
    return data.subdata(in: Int(range.first)..<Int(range.last) + 1)
  }

  /// A manifest of Period `period` of `mpd` alone, written beside it (ffmpeg 5.1 plays only
  /// one Period of a multi-Period MPD, the longest), and its path.
  static func periodAlone(_ period: Int, of mpd: MPD, in folder: URL) throws -> String {
    var single = mpd
    single.periods = [mpd.periods[period]]
    single.periods[0].start = 0
    single.periods[0].duration = nil
    single.mediaPresentationDuration = mpd.periodDuration(at: period)
    let path = folder.appending(path: "period\(period).mpd").path
    try MPDWriter.write(single).write(toFile: path, atomically: true, encoding: .utf8)
    return path
  }
}
