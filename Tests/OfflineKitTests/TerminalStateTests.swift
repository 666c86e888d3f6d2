import Foundation
import TestSupport
import TestTiming
import Testing

@testable import OfflineKit

/// How a download ends, and what a content says about itself at that moment, must match
/// the data on disk. Pins issue 12, item 1 ("terminal failures end in the state the data is
/// really in").
@Suite(.timed) struct TerminalStateTests {
  /// Pins issue 12: a checksum mismatch ended in `suspended` ("partial data kept") although
  /// the transfer had thrown the bytes away, so a resume had nothing to go on from.
  @Test func aChecksumMismatchEndsNotDownloadedWithItsErrorAndNothingToResume() async throws {
    let origin = ScriptedOrigin()
    let fixture = try origin.fixture()
    let (content, recorder) = try await fixture.watched(origin.url("file.bin"), id: "file")
    try await content.download(
      DownloadConfiguration(expectedSHA256: String(repeating: "0", count: 64)))
    try await fixture.running {
      #expect(await recorder.waitFor { $0.name == "error" })
      #expect(await recorder.waitFor { $0.name == "state:notDownloaded" })
    }
    let snapshot = try await content.snapshot
    #expect(snapshot.state == .notDownloaded)
    #expect(snapshot.bytes == 0)
    #expect(
      snapshot.lastError?.description.contains("SHA-256") == true,
      "\(snapshot.lastError?.description ?? "none")")
    #expect(!recorder.names.contains("suspended"), "\(recorder.names)")
    let part = fixture.file("file.bin.part", of: "file").path
    #expect(!FileManager.default.fileExists(atPath: part) || fileSize(part) == 0)
    // What the state says can be done, can be done: a fresh download.
    try await content.download()
  }

  /// Pins issue 12: every start sent `waiting(nil)` ("moves again") although the content
  /// had not been said to wait for anything.
  @Test func aDownloadThatNeverWaitedIsNeverToldItMovesAgain() async throws {
    let origin = ScriptedOrigin()
    let fixture = try origin.fixture()
    let (content, recorder) = try await fixture.watched(origin.url("file.bin"), id: "file")
    try await content.download()
    try await fixture.running {
      #expect(await recorder.waitFor { $0.name == "finished" })
    }
    #expect(!recorder.names.contains("waiting:nil"), "\(recorder.names)")
    #expect(try await content.state == .downloaded)
  }

  /// Pins issue 12: a snapshot taken right after suspending a stream said 0 bytes while
  /// its finished pieces were on disk (progress reached the index only once a second).
  /// The stream is served from memory: three segments come, the rest are held at a gate,
  /// so the suspend comes with pieces done and others under way.
  @Test(.enabled(if: FFmpeg.isAvailable))
  func aSnapshotRightAfterSuspendingAStreamCountsTheBytesOnDisk() async throws {
    let origin = try await ScriptedStream.make(.tsVariants, segmentCount: 12, passing: 3)
    let fixture = try ManagerFixture(transport: origin.transport)
    let (content, recorder) = try await fixture.watched(origin.url, id: "movie")
    try await content.download()
    try await fixture.running {
      #expect(await origin.gate.reached())
      #expect(await recorder.waitFor { ($0.progressBytes ?? 0) > 0 })
      try await content.suspend()
    }
    let reported = recorder.events.compactMap(\.progressBytes).max() ?? 0
    let snapshot = try await content.snapshot
    #expect(snapshot.state == .suspended)
    #expect(snapshot.bytes > 0)
    #expect(snapshot.bytes >= reported, "snapshot \(snapshot.bytes), reported \(reported)")
    #expect(snapshot.bytes <= folderBytes(fixture.contentFolder("movie")))
  }
}

/// The size of the file at `path`, 0 when there is none.
func fileSize(_ path: String) -> Int64 {
  ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.int64Value
    ?? 0
}

/// The bytes of every regular file under `folder`.
func folderBytes(_ folder: URL) -> Int64 {
  let walker = FileManager.default.enumerator(atPath: folder.path)
  var total: Int64 = 0
  while let name = walker?.nextObject() as? String {
    total += fileSize(folder.appending(path: name).path)
  }
  return total
}
