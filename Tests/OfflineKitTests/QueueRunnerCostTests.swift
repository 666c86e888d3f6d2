import Foundation
import OfflineStore
import TestSupport
import TestTiming
import Testing

@testable import OfflineKit

/// Per-file work the queue no longer does (issue 14, 1000 small files at curl's speed).
@Suite(.serialized, .timed) struct QueueRunnerCostTests {
  /// Pins the runner's last wait: `runUntilIdle` looked whether the queue was done only once
  /// per poll interval, so every run ended on average half an interval (125 ms) after its
  /// last file. With an interval of an hour it now still returns as the last file is
  /// recorded.
  @Test(.timeLimit(.minutes(2)))
  func runUntilIdleReturnsWhenTheLastFileIsRecordedNotAtTheNextPoll() async throws {
    let files = ["a.bin": 40 << 10, "b.bin": 50 << 10, "c.bin": 60 << 10]
    let queue = try QueueCostFixture(
      files: files, prefix: "offlinekit-runner-wake", parallelDownloads: 2,
      pollInterval: .seconds(3600))
    let contents = try await queue.addAll()

    #expect(
      try await runUntilIdle(queue.manager, timeout: .seconds(60)), "waited for the next poll")

    try await queue.expectDownloaded(contents)
    await queue.manager.close()
  }

  /// The manifests of contents with different options each keep their own shareable part,
  /// though the filtering remembers the last text it filtered.
  @Test func manifestsOfContentsWithDifferentOptionsKeepTheirOwn() throws {
    let texts = [
      #"{"connections":2,"headers":{"Authorization":"Bearer s3cret"}}"#,
      #"{"connections":5}"#,
      #"{"connections":2,"headers":{"Authorization":"Bearer s3cret"}}"#,
    ]
    let shared = texts.map { text in
      let record = ContentRecord(
        id: "c", url: "http://127.0.0.1:9/f.bin", fileName: "f.bin", state: .downloading,
        options: StoredJSON(text: text))
      return ContentManifest(record: record, state: .downloading).options
    }

    #expect(shared == [#"{"connections":2}"#, #"{"connections":5}"#, #"{"connections":2}"#])
  }

  /// Each record's download options are its own, though decoding remembers the last text.
  @Test func storedOptionsOfRecordsReadInTurnAreEachTheirOwn() throws {
    let texts = [#"{"connections":2,"hls":{}}"#, #"{"hls":{}}"#, #"{"connections":2,"hls":{}}"#]
    let connections = try texts.map { text in
      let record = ContentRecord(
        id: "c", url: "http://127.0.0.1:9/f.bin", fileName: "f.bin", state: .downloading,
        options: StoredJSON(text: text))
      return try DownloadConfiguration.stored(in: record).connections
    }

    #expect(connections == [.fixed(2), nil, .fixed(2)])
  }

  /// `snapshots(in:)` (what `run` reads after its work to report failures) gives the
  /// contents in those states, in queue order, and no other.
  @Test func snapshotsInStatesGiveOnlyThoseInQueueOrder() async throws {
    let fixture = try ManagerFixture()
    let manager = fixture.manager
    let contents = try await manager.contents(
      for: (1...4).map { OfflineSource(url: URL(string: "http://127.0.0.1:9/f\($0).bin")!) })
    try await contents[1].download()
    try await contents[1].suspend()
    try await contents[3].download()
    try await contents[3].suspend()
    try await contents[2].download()

    let found = try await manager.snapshots(in: [.suspended, .notDownloaded])

    #expect(found.map(\.id) == [contents[0].id, contents[1].id, contents[3].id])
    #expect(found.map(\.state) == [.notDownloaded, .suspended, .suspended])
    await manager.close()
  }
}
