import Foundation
import OfflineKit
import OfflineService
import TestSupport
import Testing

/// Issue 40, item 2: `offline serve` answers `/content/<id>/<file>` for a file that is still
/// downloading, reading through: ffmpeg plays an MP4 whose `moov` is at its end, and seeks
/// in it, long before the download is over, and the origin sends each byte once.
@Suite(.serialized, .timed) struct FileReadThroughServingTests {
  /// A 5 s MP4 of about 22 MB (noise at 25 fps, `moov` written last, as ffmpeg does without
  /// `faststart`) from nginx at 256 KiB/s per request: one connection would take 86 s. The
  /// player's first request reads the start, its second the `moov` at the end; that second
  /// one is fetched at once over a connection of its own, and the download goes on over
  /// several. ffmpeg decodes the first frame, then a frame at 90 % (`-ss 4.5`), each while
  /// the download is still under way; a restricted request for bytes not on disk is 416.
  /// When the download ends, the file is the origin's and nginx sent it once (and the
  /// one-byte probe), plus at most 4 MiB: what sockets held when a connection stopped
  /// mid-request. (At 512 KiB/s the download ended before ffmpeg, slow to start on a loaded
  /// machine, had its first frame: session 38's merge run.)
  @Test(.enabled(if: FFmpeg.isAvailable), .timeLimit(.minutes(3)))
  func ffmpegPlaysAndSeeksAFileThatIsStillDownloading() async throws {
    let fixture = try await ServiceFixture(
      nginx: .init(limitRate: "256k", logsConnections: true))
    let movie = fixture.origin.file("movie.mp4")
    let made = try await FFmpeg.run([
      "-v", "error", "-y", "-f", "lavfi", "-i",
      "testsrc2=size=640x360:rate=25,noise=alls=100:allf=t", "-t", "5", "-c:v", "mpeg4",
      "-q:v", "8", "-g", "25", movie.path,
    ])
    #expect(made.status == 0, "\(made.stderrText)")
    let body = try Data(contentsOf: movie)
    #expect(body.count > 16 << 20)
    let content = try await fixture.manager.add([
      OfflineSource(url: fixture.nginx.url("/movie.mp4"))
    ]).first!
    let url = fixture.url("/content/\(content.id)/movie.mp4")

    let first = try await FFmpeg.run([
      "-v", "error", "-i", url, "-frames:v", "1", "-f", "null", "-",
    ])
    #expect(first.status == 0, "\(first.stderrText)")
    let afterFirst = try await content.snapshot
    #expect(afterFirst.state == .downloading, "the first frame came once it was all there")
    // Not a race against the clock: a loaded machine may take long over ffmpeg's start
    // (half the file had come in session 39's full run), but the frame came from a file
    // that was not all there.
    #expect(afterFirst.bytes < Int64(body.count))

    let seek = try await FFmpeg.run([
      "-v", "error", "-ss", "4.5", "-i", url, "-frames:v", "1", "-f", "null", "-",
    ])
    #expect(seek.status == 0, "\(seek.stderrText)")
    #expect(try await content.snapshot.state == .downloading, "the seek came once it was all there")

    // Restricted to the disk: the last byte is not there yet (the download goes on).
    let restricted = try await Curl.fetch(
      url + "?offline=1", ["-H", "Range: bytes=\(body.count / 2)-\(body.count / 2)"])
    let onDisk = try await content.openFileReader().available(from: Int64(body.count / 2))
    #expect(restricted.status == (onDisk > 0 ? 206 : 416))

    try await fixture.waitFor(content.id, .downloaded, timeout: 150)
    let file = try await content.snapshot.fileURL
    let fileIsTheOrigins = FileManager.default.contents(atPath: file.path) == body
    #expect(fileIsTheOrigins)
    let log = try await fixture.nginx.accessLog(minimumCount: 2)
    #expect(!log.contains { $0.userAgent?.hasPrefix("Lavf") == true }, "ffmpeg asked the origin")
    let sent = log.reduce(Int64(0)) { $0 + $1.bodyBytesSent }
    let extra = sent - Int64(body.count)
    #expect(extra >= 0 && extra <= 4 << 20, "sent \(extra) bytes more than the file")
    await fixture.close()
  }
}
