import DASHManifest
import Foundation
import TestSupport
import TestTiming
import Testing

/// Issue 17, items 2 to 4 through the command line: `get` and `info` of an MPD, the queue
/// (`add`, `run`, `path`) and refusals, in-process. SIGKILLs during a DASH download are in
/// `StreamCrashTests`.
@Suite(
  .serialized, .enabled(if: FFmpeg.isAvailable, "ffmpeg is not installed"), .ownThreads, .timed)
struct DASHCommandTests {
  struct Origin {
    let www: TemporaryDirectory
    let files: HLSFixtureFiles
    let nginx: NginxServer
    var url: String { files.url(on: nginx).absoluteString }

    init(_ kind: DASHStreamFixture, limitRate: String? = nil) async throws {
      www = try TemporaryDirectory(prefix: "offlinekit-dash")
      files = try await kind.make(in: www.url)
      nginx = try NginxServer(root: files.folder, options: .init(limitRate: limitRate))
      try nginx.start()
    }

    /// The MD5s of the origin's decoded `streams`, over http.
    func decoded(_ streams: [String]) async throws -> [String] {
      try await streams.asyncMap { try await FFmpeg.decodedMD5(url, stream: $0).md5 }
    }
  }

  /// The MD5s of the decoded `streams` of the offline MPD at `path`, with no error printed.
  func decoded(_ path: String, _ streams: [String]) async throws -> [String] {
    try await streams.asyncMap { stream in
      let result = try await FFmpeg.decodedMD5(path, stream: stream)
      #expect(result.errors.isEmpty, "\(stream): \(result.errors)")
      return result.md5
    }
  }

  @Test func getWritesAFolderThatDecodesLikeTheOriginAndARerunFetchesNothing() async throws {
    let origin = try await Origin(.timeline)
    let expected = try await origin.decoded(["v:0", "a:0"])
    let work = try TemporaryDirectory()
    let out = work.url.appending(path: "movie").path
    let store = work.url.appending(path: "store").path
    let first = try await InProcessOffline.run(["--store", store, "get", origin.url, "-o", out])
    #expect(first.status == 0, "\(first.stderrText)")
    #expect(first.stderrText.contains("Saved \(out)/index.mpd (5 segments"), "\(first.stderrText)")
    let requests = try await origin.nginx.accessLog(minimumCount: 1).count
    origin.nginx.stop(graceful: false)
    #expect(try await decoded(out + "/index.mpd", ["v:0", "a:0"]) == expected)

    try await RepeatedGet.expectFetchesNothing(
      nginx: origin.nginx, requests: requests, store: store, url: origin.url, out: out)
  }

  /// `--variant lowest` takes the 96x54 Representation of the video AdaptationSet.
  @Test func getAppliesTheVariantChoiceToTheVideoAdaptationSet() async throws {
    let origin = try await Origin(.timeline)
    let work = try TemporaryDirectory()
    let out = work.url.appending(path: "small").path
    let result = try await InProcessOffline.run([
      "--store", work.url.appending(path: "store").path, "get", origin.url, "-o", out,
      "--variant", "lowest", "--quiet",
    ])
    #expect(result.status == 0, "\(result.stderrText)")
    let mpd = try MPDParser.parse(Data(contentsOf: URL(fileURLWithPath: out + "/index.mpd")))
    let video = mpd.periods[0].adaptationSets[0].representations
    #expect(video.map(\.common.width) == [96])
  }

  @Test func infoListsWhatTheManifestOffersInTextAndJSON() async throws {
    let origin = try await Origin(.languages)
    let text = try await InProcessOffline.run(["info", origin.url])
    #expect(text.status == 0, "\(text.stderrText)")
    for line in [
      "Duration: 4.0 s in 1 period", "Protection: none", "Video (--variant):", "160x90",
      "Audio (--audio):", "    eng  main", "    fra", "Subtitles (--subtitles):",
      "    en  subtitle", "text/vtt",
    ] {
      #expect(text.stdoutText.contains(line), "missing \(line) in \(text.stdoutText)")
    }
    let json = try await InProcessOffline.run(["info", origin.url, "--json"])
    #expect(json.status == 0)
    let object = try JSONSerialization.jsonObject(with: Data(json.stdoutText.utf8))
    let root = try #require(object as? [String: Any])
    #expect(root["kind"] as? String == "dash" && root["live"] as? Bool == false)
    let periods = try #require(root["periods"] as? [[String: Any]])
    let sets = try #require(periods.first?["adaptationSets"] as? [[String: Any]])
    #expect(sets.map { $0["type"] as? String } == ["video", "audio", "audio", "text"])
    #expect(sets.map { $0["language"] as? String } == [nil, "eng", "fra", "en"])
  }

  @Test func theQueueDownloadsAPresentationThatDecodesLikeTheOrigin() async throws {
    let origin = try await Origin(.languages)
    let expected = try await origin.decoded(["v:0", "a:1"])
    let work = try TemporaryDirectory()
    let store = work.url.appending(path: "store").path
    let added = try await InProcessOffline.run([
      "--store", store, "add", origin.url, "--id", "show", "--audio", "fra",
    ])
    #expect(added.status == 0, "\(added.stderrText)")
    let run = try await InProcessOffline.run(["--store", store, "run", "--quiet"])
    #expect(run.status == 0, "\(run.stderrText)")
    let listed = try await InProcessOffline.run(["--store", store, "ls"])
    #expect(listed.stdoutText.contains("downloaded"), "\(listed.stdoutText)")
    let path = try await InProcessOffline.run(["--store", store, "path", "show"]).stdoutText
      .trimmingCharacters(in: .whitespacesAndNewlines)
    #expect(path.hasSuffix("/index.mpd"))
    origin.nginx.stop(graceful: false)
    // French only: the copy's one audio stream is the origin's second.
    #expect(try await decoded(path, ["v:0", "a:0"]) == expected)
  }

  @Test func liveAndProtectedPresentationsAreRefusedBeforeAnySegment() async throws {
    let origin = try await Origin(.timeline)
    let manifest = origin.files.entryFile
    let text = try String(contentsOf: manifest, encoding: .utf8)
    let work = try TemporaryDirectory()
    let store = work.url.appending(path: "s").path
    try text.replacingOccurrences(of: "type=\"static\"", with: "type=\"dynamic\"")
      .write(to: manifest, atomically: true, encoding: .utf8)
    let live = try await InProcessOffline.run([
      "--store", store, "get", origin.url, "-o", work.url.appending(path: "live").path,
    ])
    #expect(live.status == 1)
    #expect(live.stderrText.contains("Error:") && live.stderrText.contains("live"))
    try text.replacingOccurrences(
      of: "<Representation id=\"0\"",
      with: "<ContentProtection schemeIdUri=\"urn:uuid:edef8ba9-79d6-4ace-a3c8-27dcd51d21ed\"/>"
        + "<Representation id=\"0\""
    ).write(to: manifest, atomically: true, encoding: .utf8)
    let drm = try await InProcessOffline.run([
      "--store", store, "get", origin.url, "-o", work.url.appending(path: "drm").path,
    ])
    #expect(drm.status == 1)
    #expect(drm.stderrText.contains("Widevine"), "\(drm.stderrText)")
    let log = try await origin.nginx.accessLog(minimumCount: 2)
    #expect(log.allSatisfy { $0.uri == "/manifest.mpd" }, "no segment was fetched")
  }

}
