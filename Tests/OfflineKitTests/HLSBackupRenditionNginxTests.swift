import Foundation
import OfflineHTTP
import TestSupport
import TestTiming
import Testing

@testable import OfflineKit

/// Issue 43, item 3: the backup variant's audio group lists its renditions in another order
/// (French first) and names them otherwise: an English segment missing on the first CDN
/// comes from the backup's English rendition, never from the French one at the same place.
@Suite(.serialized, .enabled(if: FFmpeg.isAvailable, "ffmpeg is not installed"), .timed)
struct HLSBackupRenditionNginxTests {
  @Test func aMissingAudioSegmentComesFromTheBackupsRenditionOfTheSameLanguage() async throws {
    let cdns = try await StreamFailoverTests.TwoCDNs(hls: .renditions)
    let media = "#EXT-X-MEDIA:TYPE=AUDIO,AUTOSELECT=YES"
    let master = """
      #EXTM3U
      \(media),GROUP-ID="a1",NAME="English",LANGUAGE="en",DEFAULT=YES,URI="cdn1/audio_en/index.m3u8"
      \(media),GROUP-ID="a1",NAME="Français",LANGUAGE="fr",DEFAULT=NO,URI="cdn1/audio_fr/index.m3u8"
      \(media),GROUP-ID="a2",NAME="French (2)",LANGUAGE="fr",DEFAULT=NO,URI="cdn2/audio_fr/index.m3u8"
      \(media),GROUP-ID="a2",NAME="English (2)",LANGUAGE="en",DEFAULT=YES,URI="cdn2/audio_en/index.m3u8"
      #EXT-X-STREAM-INF:BANDWIDTH=500000,AUDIO="a1"
      cdn1/video/index.m3u8
      #EXT-X-STREAM-INF:BANDWIDTH=500000,AUDIO="a2"
      cdn2/video/index.m3u8

      """
    try master.write(to: cdns.www.file("master.m3u8"), atomically: true, encoding: .utf8)
    let audio = cdns.www.url.appending(path: "cdn1/audio_en")
    let name = try #require(
      try FileManager.default.contentsOfDirectory(atPath: audio.path).sorted()
        .first { !$0.hasSuffix(".m3u8") })
    let size = try Int64(Data(contentsOf: audio.appending(path: name)).count)
    try FileManager.default.removeItem(at: audio.appending(path: name))
    let (root, index) = try StreamFailoverTests().store()
    let download = HLSDownload(
      url: cdns.nginx.url("/master.m3u8"), folder: root.url.appending(path: "content"),
      configuration: StreamFailoverTests.quickRetries, journal: index.transfers,
      transport: CurlTransport())
    let outcome = try await download.run()
    let log = try await cdns.nginx.accessLog(minimumCount: 10, timeout: 30)
    #expect(
      log.filter { $0.uri.hasSuffix("/\(name)") && $0.uri.contains("audio") }
        .map { "\($0.uri) \($0.status)" } == [
          "/cdn1/audio_en/\(name) 404", "/cdn2/audio_en/\(name) 200",
        ])
    #expect(!log.contains { $0.uri.hasPrefix("/cdn2/audio_fr/") }, "\(log.map(\.uri))")
    #expect(outcome.sources.last?.bytes == size, "\(outcome.sources)")

    let origin = try await FFmpeg.decodedMD5(
      cdns.www.url.appending(path: "cdn2/audio_en/index.m3u8").path, stream: "a:0")
    cdns.nginx.stop(graceful: false)
    let decoded = try await FFmpeg.decode(outcome.index.path)
    #expect(decoded.errors.isEmpty, "\(decoded.errors)")
    #expect(abs(decoded.duration - cdns.files.duration) < 0.6, "\(decoded.duration)")
    let copy = root.url.appending(path: "content/audio0-en/playlist.m3u8")
    let audioCopy = try await FFmpeg.decodedMD5(copy.path, stream: "a:0")
    #expect(audioCopy.errors.isEmpty, "\(audioCopy.errors)")
    #expect(audioCopy.md5 == origin.md5, "the English audio, whole")
    #expect(!origin.md5.isEmpty)
  }
}
