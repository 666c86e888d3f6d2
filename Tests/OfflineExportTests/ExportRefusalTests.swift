import Foundation
import OfflineExport
import TestTiming
import Testing

/// Bad inputs give a clear error and write nothing: no file at the destination, no temporary
/// file beside it.
@Suite(.timed) struct ExportRefusalTests {
  @Test func existingDestinationIsRefusedAndLeftAsItWas() async throws {
    let folder = try TemporaryFolder()
    let fixture = try Fixture.make(.transportStream, seconds: 4, in: folder.url)
    let destination = folder.url.appendingPathComponent("out.mp4")
    try Data("mine".utf8).write(to: destination)
    await #expect(throws: ExportError.destinationExists(path: destination.path)) {
      try await StreamExport(source: fixture.folder, destination: destination).run()
    }
    #expect(try Data(contentsOf: destination) == Data("mine".utf8))
    #expect(try folder.names() == ["out.mp4", "transportStream"])
  }

  @Test func existingDestinationIsReplacedWhenOverwriteIsAsked() async throws {
    let folder = try TemporaryFolder()
    let fixture = try Fixture.make(.transportStream, seconds: 4, in: folder.url)
    let destination = folder.url.appendingPathComponent("out.mkv")
    try Data("mine".utf8).write(to: destination)
    let report = try await StreamExport(
      source: fixture.folder, destination: destination, overwrite: true
    ).run()
    #expect(try Probe.of(destination).streams.count == 2)
    #expect(report.bytes == Int64(try Data(contentsOf: destination).count))
    #expect(try folder.names() == ["out.mkv", "transportStream"])
  }

  @Test func destinationInAMissingFolderIsAnError() async throws {
    let folder = try TemporaryFolder()
    let fixture = try Fixture.make(.transportStream, seconds: 4, in: folder.url)
    let missing = folder.url.appendingPathComponent("nowhere")
    await #expect(throws: ExportError.destinationFolderMissing(path: missing.path)) {
      try await StreamExport(
        source: fixture.folder, destination: missing.appendingPathComponent("out.mp4")
      ).run()
    }
    #expect(try folder.names() == ["transportStream"])
  }

  @Test func folderWithoutAPlaylistIsNotAStream() async throws {
    let folder = try TemporaryFolder()
    let source = folder.url.appendingPathComponent("photos")
    try FileManager.default.createDirectory(at: source, withIntermediateDirectories: true)
    try Data("not a playlist".utf8).write(to: source.appendingPathComponent("a.jpg"))
    await #expect(throws: ExportError.notAStream(path: source.path)) {
      try await StreamExport(
        source: source, destination: folder.url.appendingPathComponent("out.mp4")
      ).run()
    }
    #expect(try folder.names() == ["photos"])
  }

  @Test func playlistThatIsNotM3U8TextIsNotAStream() async throws {
    let folder = try TemporaryFolder()
    let source = folder.url.appendingPathComponent("index.m3u8")
    try Data([0x00, 0xFF, 0x47, 0x40]).write(to: source)
    await #expect(throws: ExportError.notAStream(path: source.path)) {
      try await StreamExport(
        source: folder.url, destination: folder.url.appendingPathComponent("out.mp4")
      ).run()
    }
    #expect(try folder.names() == ["index.m3u8"])
  }

  @Test func missingSourceIsNotFound() async throws {
    let folder = try TemporaryFolder()
    let source = folder.url.appendingPathComponent("gone")
    await #expect(throws: ExportError.sourceNotFound(path: source.path)) {
      try await StreamExport(
        source: source, destination: folder.url.appendingPathComponent("out.mp4")
      ).run()
    }
    #expect(try folder.names().isEmpty)
  }

  @Test func destinationWithoutAKnownExtensionNeedsAFormat() async throws {
    let folder = try TemporaryFolder()
    let fixture = try Fixture.make(.transportStream, seconds: 4, in: folder.url)
    let destination = folder.url.appendingPathComponent("out.avi")
    await #expect(throws: ExportError.unknownFormat(path: destination.path)) {
      try await StreamExport(source: fixture.folder, destination: destination).run()
    }
    let report = try await StreamExport(
      source: fixture.folder, destination: destination, format: .mkv
    ).run()
    #expect(report.format == .mkv)
    #expect(try Probe.of(destination).streams.count == 2)
  }

  /// SMPTE 302M audio travels in MPEG-TS but neither MP4 nor Matroska can hold it.
  @Test(arguments: ExportFormat.allCases)
  func codecTheContainerCannotHoldIsNamed(format: ExportFormat) async throws {
    let folder = try TemporaryFolder()
    let source = folder.url.appendingPathComponent("s302m")
    try FileManager.default.createDirectory(at: source, withIntermediateDirectories: true)
    try Tool.run(
      "ffmpeg",
      [
        "-v", "error", "-f", "lavfi", "-i", "testsrc=size=320x240:rate=25", "-f", "lavfi", "-i",
        "sine=sample_rate=48000", "-t", "4", "-c:v", "libx264", "-preset", "ultrafast", "-g",
        "50", "-c:a", "s302m", "-strict", "-2", "-ac", "2", "-f", "hls", "-hls_time", "2",
        "-hls_playlist_type", "vod", "index.m3u8",
      ], in: source)
    await #expect(throws: ExportError.unsupportedCodec(codec: "s302m", container: format.rawValue))
    {
      try await StreamExport(
        source: source, destination: folder.url.appendingPathComponent("out.\(format.rawValue)")
      ).run()
    }
    #expect(try folder.names() == ["s302m"])
  }

  @Test func cancellationLeavesNothingAtTheDestination() async throws {
    let folder = try TemporaryFolder()
    let fixture = try Fixture.make(.transportStream, seconds: 6, in: folder.url)
    let destination = folder.url.appendingPathComponent("out.mp4")
    // The first progress report holds the export until the task is cancelled, so the
    // cancellation lands while packets are being written, whatever the machine's speed.
    let cancelled = DispatchSemaphore(value: 0)
    let firstReport = Locked(false)
    let export = StreamExport(source: fixture.folder, destination: destination)
    let task = Task {
      try await export.run { _ in
        if !firstReport.isSet {
          firstReport.set(true)
          cancelled.wait()
        }
      }
    }
    while !firstReport.isSet { try await Task.sleep(for: .milliseconds(5)) }
    #expect(try folder.names().contains { $0.hasSuffix(".partial") })
    task.cancel()
    cancelled.signal()
    await #expect(throws: ExportError.cancelled) { try await task.value }
    #expect(try folder.names() == ["transportStream"])
  }
}

/// What an export killed with SIGKILL leaves is cleaned up by the next one to the same file.
@Suite(.timed) struct AbandonedExportTests {
  @Test func temporaryFileOfAKilledExportIsRemovedByTheNextOne() async throws {
    let folder = try TemporaryFolder()
    let fixture = try Fixture.make(.transportStream, seconds: 4, in: folder.url)
    // A process that has ended: its pid names no running process.
    let ended = Process()
    ended.executableURL = URL(fileURLWithPath: "/bin/true")
    try ended.run()
    ended.waitUntilExit()
    let abandoned = ".out.mp4.export-\(ended.processIdentifier)-1f2e.partial"
    let running = ".out.mp4.export-\(getpid())-3c4d.partial"
    for name in [abandoned, running] {
      try Data("half".utf8).write(to: folder.url.appendingPathComponent(name))
    }
    _ = try await StreamExport(
      source: fixture.folder, destination: folder.url.appendingPathComponent("out.mp4")
    ).run()
    #expect(try folder.names() == [running, "out.mp4", "transportStream"])
  }
}
