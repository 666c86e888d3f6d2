import Foundation
import OfflineHTTP
import TestSupport
import TestTiming
import Testing

@testable import OfflineKit

/// A sync of the file system that fails (a disk answering `EIO`, armed with ``SyncFault``):
/// nothing whose bytes may not be on the device is recorded complete, and the next run,
/// with the disk well again, finishes without fetching the bytes again.
@Suite(.timed) struct SyncFailureTests {
  /// Pins a defect found in session 24's review: a stream's one `syncfs` after its pieces
  /// ignored a failure, so the stream was written complete (`index.m3u8`) with pieces that
  /// might never have reached the device.
  @Test func aStreamWhoseSyncFailsIsNotCompleteAndItsNextRunFetchesNothingAgain() async throws {
    let stream = try FaultHLSTests.Stream(encrypted: false)
    SyncFault.fail(under: stream.folder, with: EIO)
    let error = await stream.failingRun()
    SyncFault.clear(under: stream.folder)

    guard case .file(let fileError)? = error?.kind else {
      Issue.record("expected a file error, got \(String(describing: error))")
      return
    }
    #expect(fileError.operation == .sync)
    #expect(fileError.errno == EIO)
    #expect(
      !FileManager.default.fileExists(atPath: stream.folder.appending(path: "index.m3u8").path),
      "no offline playlist for a stream whose pieces may not be on the device")

    _ = try await stream.download().run()
    #expect(try stream.segmentsOnDisk() == stream.segments)
    for number in 0..<FaultHLSTests.segmentCount {
      #expect(stream.server.requests(for: "/v/seg\(number).ts").count == 1, "seg\(number)")
    }
  }

  /// The queue's batch of finished files: when the sync before it records them fails, none
  /// is recorded downloaded (each keeps its file and says why); once the disk is well, the
  /// next run records every one.
  @Test func queueFilesWhoseBatchSyncFailsAreNotRecordedDownloaded() async throws {
    var files: [String: Int] = [:]
    for index in 0..<4 { files["f\(index).bin"] = 20 << 10 }
    let queue = try QueueCostFixture(
      files: files, prefix: "offlinekit-sync-failure", parallelDownloads: 2,
      pollInterval: .seconds(1))
    let store = queue.folder.url.appending(path: "store", directoryHint: .isDirectory)
    SyncFault.fail(under: store, with: EIO)
    let contents = try await queue.addAll()
    #expect(try await runUntilIdle(queue.manager, timeout: .seconds(60)))
    SyncFault.clear(under: store)

    for content in contents {
      let snapshot = try await queue.manager.snapshot(id: content.id)
      #expect(snapshot.state != .downloaded, "\(content.id) is \(snapshot.state)")
      #expect(snapshot.lastError != nil, "\(content.id) says why")
    }

    for content in contents {
      let state = try await queue.manager.snapshot(id: content.id).state
      if state == .suspended { try await content.resume() }
    }
    #expect(try await runUntilIdle(queue.manager, timeout: .seconds(60)))
    try await queue.expectDownloaded(contents)
    await queue.manager.close()
  }
}
