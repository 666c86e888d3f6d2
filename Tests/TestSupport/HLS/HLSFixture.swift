import Foundation

/// A kind of HLS stream made with ffmpeg from its built-in test sources (`testsrc2`, `sine`):
/// no downloaded media, a few hundred kilobytes, made in about a second.
///
/// Video is H.264 at 25 frames per second with a key frame at every segment boundary; audio
/// is mono AAC at 48 kHz. Every playlist is a VOD playlist (`#EXT-X-ENDLIST`) with relative
/// URIs only. See `make(in:duration:segmentDuration:segmentCount:)`.
///
/// ```swift
/// let root = try TemporaryDirectory()
/// let files = try await HLSFixture.aes128Rotating.make(in: root.url)
/// let nginx = try NginxServer(root: files.folder)
/// try nginx.start()
/// ```
public enum HLSFixture: String, CaseIterable, Sendable {
  /// `/master.m3u8` with three variants, 320x180 at 200 kb/s, 640x360 at 600 kb/s and 960x540
  /// at 1200 kb/s, each in `vN/index.m3u8` with MPEG-TS segments holding video and audio.
  case tsVariants
  /// `/index.m3u8`, a media playlist of fragmented MP4 segments (`seg0.m4s`, …) with
  /// `#EXT-X-MAP:URI="init.mp4"`.
  case fmp4
  /// `/index.m3u8` with MPEG-TS segments encrypted with AES-128-CBC, a new key every two
  /// segments, starting at `#EXT-X-MEDIA-SEQUENCE:7`. Keys 0, 2, … carry an explicit `IV`;
  /// keys 1, 3, … have none, so the IV is the media sequence number (RFC 8216, 5.2).
  case aes128Rotating
  /// `/master.m3u8` with one video variant, `AUDIO` renditions in English (`DEFAULT=YES`) and
  /// French, and an English WebVTT `SUBTITLES` rendition whose segments carry
  /// `X-TIMESTAMP-MAP`.
  case renditions
  /// `/index.m3u8` whose segments are `#EXT-X-BYTERANGE`s of one file, `index.ts`.
  case byteRange
  /// `/index.m3u8`, a media playlist of many tiny video-only MPEG-TS segments, for
  /// benchmarks; pass `segmentCount` to `make`.
  case manySegments

  /// Makes the fixture and copies it into `folder`, which is created if needed.
  ///
  /// The first call for a kind and its parameters encodes into a cache directory shared by
  /// the process (removed when it exits); later calls only copy from there, so tests that
  /// share a fixture do not re-encode. Calls for the same fixture from several tasks at once
  /// await one encode (no thread is held meanwhile). The files are copies, not links: a test may damage its own copy.
  ///
  /// - Parameters:
  ///   - folder: Where to put the files; existing files of the same names are replaced.
  ///   - duration: The length of the source in seconds.
  ///   - segmentDuration: The target length of one segment in seconds.
  ///   - segmentCount: The number of segments; when given, `duration` becomes
  ///     `segmentCount × segmentDuration`.
  /// - Returns: The folder, the entry playlist's path, the duration and the key files.
  /// - Throws: `TestSupportError.processFailed` when ffmpeg, ffprobe or openssl fail, or the
  ///   file manager's error.
  public func make(
    in folder: URL, duration: Double = 6, segmentDuration: Double = 1, segmentCount: Int? = nil
  ) async throws -> HLSFixtureFiles {
    let parameters = Parameters(
      duration: segmentCount.map { Double($0) * segmentDuration } ?? duration,
      segmentDuration: segmentDuration)
    let cacheKey = "\(rawValue)-\(parameters.duration)-\(parameters.segmentDuration)"
    let built = try await HLSFixtureCache.shared.product(for: cacheKey) { staging in
      try await build(in: staging, parameters)
    }
    try HLSFixtureCache.copyContents(of: built.folder, into: folder)
    return HLSFixtureFiles(
      folder: folder, entryPath: "/" + built.product.entry, duration: parameters.duration,
      keys: built.product.keys.map { folder.appendingPathComponent($0, isDirectory: false) })
  }

  /// What `make` was asked for, with `segmentCount` already turned into a duration.
  struct Parameters: Sendable {
    var duration: Double
    var segmentDuration: Double

    /// The number of segments the source is cut into (the last one may be shorter).
    var segmentCount: Int {
      max(1, Int((duration / segmentDuration - 0.001).rounded(.up)))
    }
  }

  /// What a build leaves in its folder, as paths relative to it.
  struct Product: Sendable {
    /// The entry playlist, such as `"master.m3u8"`.
    var entry: String
    /// The key files, in playlist order.
    var keys: [String] = []
  }

  /// Encodes this fixture into the empty directory `folder`.
  private func build(in folder: URL, _ parameters: Parameters) async throws -> Product {
    switch self {
    case .tsVariants: return try await buildVariants(in: folder, parameters)
    case .fmp4: return try await buildFragmentedMP4(in: folder, parameters)
    case .aes128Rotating: return try await buildRotatingKeys(in: folder, parameters)
    case .renditions: return try await buildRenditions(in: folder, parameters)
    case .byteRange: return try await buildByteRange(in: folder, parameters)
    case .manySegments: return try await buildManySegments(in: folder, parameters)
    }
  }
}
