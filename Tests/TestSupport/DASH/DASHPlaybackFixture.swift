import Foundation

/// A kind of MPEG-DASH presentation long enough to show whether a player decodes an offline
/// copy to its end: 20 seconds of 160x90 H.264 at 10 fps and mono AAC at 48 kHz, cut every
/// 2 seconds, so each stream has at least ten segments of 20 video frames (issue 36: ffmpeg
/// 5.1 decoded only the first two segments of such a copy when it was a `SegmentList`). One
/// video and one audio Representation per Period; `static`, relative URLs, at
/// `/manifest.mpd` in the folder.
///
/// ```swift
/// let files = try await DASHPlaybackFixture.time.make(in: root.url)
/// ```
public enum DASHPlaybackFixture: String, CaseIterable, Sendable, CustomStringConvertible {
  /// `SegmentTemplate` with `$Number%05d$` and a `SegmentTimeline`.
  case timeline
  /// `SegmentTemplate` with `$Number%05d$` and `@duration` only.
  case number
  /// `SegmentTemplate` with `$Time$` and a `SegmentTimeline`.
  case time
  /// `SegmentList` of one file per segment with `@duration` (`-use_template 0`).
  case list
  /// One file per Representation with one `sidx` box, described by a hand-written
  /// `SegmentBase` with `indexRange` (as ``DASHStreamFixture/segmentBase``).
  case segmentBase
  /// The timeline media twice, in two Periods of 20 s written by hand (`first`, `second`).
  case twoPeriods

  /// The duration of one Period in seconds.
  public static let periodSeconds = 20
  /// Video frames per second.
  public static let frameRate = 10

  /// The kind's name, for test arguments.
  public var description: String { rawValue }

  /// The presentation's duration in seconds: 20, or 40 for ``twoPeriods``.
  public var duration: Double { Double(Self.periodSeconds * (self == .twoPeriods ? 2 : 1)) }

  /// Makes the fixture (once per process, cached with the other fixtures) and copies it into
  /// `folder`.
  ///
  /// - Returns: The folder, the manifest's path (`/manifest.mpd`) and the duration.
  /// - Throws: `TestSupportError.processFailed` when ffmpeg fails, or the file manager's error.
  public func make(in folder: URL) async throws -> HLSFixtureFiles {
    let built = try await HLSFixtureCache.shared.product(for: "dash-playback-\(rawValue)") {
      staging in
      try await build(in: staging)
      return HLSFixture.Product(entry: "manifest.mpd")
    }
    try HLSFixtureCache.copyContents(of: built.folder, into: folder)
    return HLSFixtureFiles(
      folder: folder, entryPath: "/manifest.mpd", duration: duration, keys: [])
  }

  private func build(in folder: URL) async throws {
    let manifest = folder.appendingPathComponent("manifest.mpd")
    let template = ["-use_template", "1", "-use_timeline", "1"]
    let options: [String]
    switch self {
    case .timeline, .twoPeriods: options = template
    case .number: options = ["-use_template", "1", "-use_timeline", "0"]
    case .time: options = template + ["-media_seg_name", "chunk-$RepresentationID$-$Time$.$ext$"]
    case .list: options = ["-use_template", "0", "-use_timeline", "0"]
    case .segmentBase: options = ["-single_file", "1", "-global_sidx", "1"]
    }
    try await DASHStreamFixture.encode(
      into: folder, options: options, videos: 1, languages: [], duration: Self.periodSeconds,
      frameRate: Self.frameRate)
    switch self {
    case .segmentBase:
      try FileManager.default.moveItem(
        at: manifest, to: folder.appendingPathComponent("ffmpeg.mpd"))
      try DASHStreamFixture.segmentBaseManifest(in: folder, seconds: Self.periodSeconds).write(
        to: manifest, atomically: true, encoding: .utf8)
    case .twoPeriods:
      try DASHStreamFixture.repeatPeriod(of: manifest, seconds: Self.periodSeconds)
    case .time:
      try Self.nameFirstSegmentsAtZero(in: folder)
    default:
      break
    }
  }

  /// ffmpeg 5.1's DASH muxer names a segment with `$Time$` from its first packet's time, so
  /// the first audio segment is `chunk-1--1024.m4s` (the AAC encoder's priming), while its
  /// manifest says `t="0"`: renames such a file to the name the manifest addresses.
  private static func nameFirstSegmentsAtZero(in folder: URL) throws {
    let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
    for name in files where name.hasPrefix("chunk-") && name.contains("--") {
      let fixed = name.replacingOccurrences(
        of: #"--[0-9]+\."#, with: "-0.", options: .regularExpression)
      try FileManager.default.moveItem(
        at: folder.appendingPathComponent(name), to: folder.appendingPathComponent(fixed))
    }
  }
}
