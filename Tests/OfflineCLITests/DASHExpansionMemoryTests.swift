import Foundation
import TestSupport
import Testing

/// Pins issue 36, item 9: a DASH manifest of 13 to 50 KB grew `offline get` past 1.5 GB in
/// seconds (3 GB in 25 s), because the only bound counted segments per Representation: a
/// 20,000-character media template, a 50,000-character `RepresentationID`, or 50 Periods of
/// 199,999 segments each expanded to gigabytes of URLs. Each is now refused before it is
/// expanded, with a sentence naming the bound; the peak resident memory of the real process,
/// served by nginx, stays that of a small run, only the manifest is fetched and nothing is
/// written.
@Suite(.serialized, .ownThreads)
struct DASHExpansionMemoryTests {
  /// The most a refused run may reach; a plain `offline info` peaks near 30 MiB here.
  static let peakBound = 200 << 20

  /// A static manifest of `periods` Periods of `seconds` one-second segments each.
  static func manifest(periods: Int, media: String, id: String = "v", seconds: Int = 199_999)
    -> String
  {
    let period =
      "<Period duration=\"PT\(seconds)S\"><AdaptationSet mimeType=\"video/mp4\">"
      + "<SegmentTemplate timescale=\"1\" duration=\"1\" media=\"\(media)\" initialization=\"i.mp4\"/>"
      + "<Representation id=\"\(id)\" bandwidth=\"100000\"/></AdaptationSet></Period>"
    return "<?xml version=\"1.0\"?>\n<MPD xmlns=\"urn:mpeg:dash:schema:mpd:2011\" type=\"static\""
      + " mediaPresentationDuration=\"PT\(seconds * periods)S\">"
      + String(repeating: period, count: periods) + "</MPD>\n"
  }

  static let cases: [(name: String, text: String, bound: String)] = [
    (
      "long-template",
      manifest(periods: 1, media: String(repeating: "a", count: 20_000) + "$Number$.m4s"),
      "MiB of segment URLs"
    ),
    (
      "long-id",
      manifest(
        periods: 1, media: "$RepresentationID$/$Number$.m4s",
        id: String(repeating: "r", count: 50_000)), "MiB of segment URLs"
    ),
    ("many-periods", manifest(periods: 50, media: "s$Number$.m4s"), "segments in all"),
  ]

  @Test(arguments: cases.indices)
  func aSmallManifestThatExpandsToGigabytesIsRefusedWithFlatMemory(_ index: Int) async throws {
    let (name, text, bound) = Self.cases[index]
    let www = try TemporaryDirectory(prefix: "offlinekit-expansion")
    try Data(text.utf8).write(to: www.file("\(name).mpd"))
    #expect(text.utf8.count < 60_000)
    let nginx = try NginxServer(root: www.url)
    try nginx.start()
    defer { nginx.stop(graceful: false) }
    let work = try TemporaryDirectory()
    let out = work.url.appending(path: "out")
    let run = try await PeakMemoryRun.run(
      OfflineBinary.path,
      [
        "--store", work.url.appending(path: "store").path, "get",
        nginx.url("/\(name).mpd").absoluteString, "-o", out.path, "--quiet",
      ], ceiling: 1 << 30, timeout: 120)
    #expect(
      run.killedFor == nil, "\(name): killed for \(run.killedFor ?? "") at \(run.peakMiB) MiB")
    #expect(run.peakBytes < Self.peakBound, "\(name): peak \(run.peakMiB) MiB")
    #expect(run.status == 1, "\(name): \(run.stderr)")
    #expect(run.stderr.contains("at most") && run.stderr.contains(bound), "\(name): \(run.stderr)")
    let log = try await nginx.accessLog(minimumCount: 1)
    #expect(log.map(\.uri) == ["/\(name).mpd"], "only the manifest was fetched")
    let written = (try? FileManager.default.subpathsOfDirectory(atPath: out.path)) ?? []
    #expect(written.allSatisfy { !$0.hasSuffix(".m4s") && !$0.hasSuffix(".mpd") }, "\(written)")
  }
}
