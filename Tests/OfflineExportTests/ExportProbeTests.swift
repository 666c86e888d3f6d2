import Foundation
import OfflineExport
import TestTiming
import Testing

/// The export reads less ahead than libav's default to learn a part's streams (a peak memory
/// about 4 MiB lower, issue 42), and opens the part again with the default when that was too
/// little to know a stream.
@Suite(.timed) struct ExportProbeTests {
  /// Pins the fallback: dense video (noise at 11 MB/s) whose audio starts a second and a half
  /// late, so the short read-ahead sees no audio packet. Cut short there, the audio track had
  /// no sample rate and the muxer refused its header ("Invalid argument"); opened again with
  /// libav's default, the export has both tracks and the same sound as the offline copy.
  @Test func aStreamWhoseAudioComesLateIsReadAgainAndKeepsItsAudio() async throws {
    let folder = try TemporaryFolder()
    let copy = folder.url.appendingPathComponent("late-audio")
    try FileManager.default.createDirectory(at: copy, withIntermediateDirectories: true)
    try Tool.run(
      "ffmpeg",
      [
        "-v", "error", "-f", "lavfi", "-i", "testsrc2=size=640x360:rate=25,noise=alls=100:allf=t",
        "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000,adelay=1500:all=1", "-t", "4",
        "-c:v", "libx264", "-preset", "ultrafast", "-qp", "8", "-g", "100", "-c:a", "aac",
        "-f", "hls", "-hls_time", "4", "-hls_playlist_type", "vod",
        "-hls_segment_filename", "s%d.ts", "index.m3u8",
      ], in: copy)
    let playlist = copy.appendingPathComponent("index.m3u8")
    let destination = folder.url.appendingPathComponent("out.mp4")

    let report = try await StreamExport(source: copy, destination: destination).run()

    #expect(report.tracks.map(\.codec) == ["h264", "aac"])
    #expect(try Probe.of(destination).streams.map(\.codec_type) == ["video", "audio"])
    #expect(try Probe.decodedMD5(destination, "a") == Probe.decodedMD5(playlist, "a"))
  }
}
