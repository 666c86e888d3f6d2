import Foundation
import OfflineLocks
import OfflineStore
import TestSupport
import TestTiming
import Testing

@testable import OfflineKit

/// The manager's log (issue 38, item 2): what the executor skips because the index or the
/// disk failed reaches the application's log, naming the content, what was skipped and
/// why. Before, each such failure was a `try?` that left no trace.
@Suite(.timed) struct LogSinkTests {
  @Test func aRecordTheExecutorCannotReadIsLoggedWithWhatWasSkipped() async throws {
    let folder = try TemporaryDirectory(prefix: "offlinekit-log")
    let logged = Locked<[OfflineLogMessage]>([])
    var configuration = ManagerFixture.configuration()
    configuration.log = { message in logged.withLock { $0.append(message) } }
    let manager = try OfflineManager(directory: folder.url, configuration: configuration)
    let content = try await manager.content(
      for: OfflineSource(url: URL(string: "http://127.0.0.1:9/a.bin")!, id: "a"))
    try await content.download()
    #expect(logged.withLock { $0 }.isEmpty)
    try OfflineIndex(directory: folder.url).database.execute(
      "UPDATE contents SET wait_reason = 'paused' WHERE id = 'a'")

    await manager.announce(id: "a")  // the executor's step after an update or a wait

    let messages = logged.withLock { $0 }
    #expect(messages.count == 1, "\(messages)")
    #expect(messages.first?.contentID == "a")
    let text = messages.first?.description ?? ""
    #expect(
      text.hasPrefix("content a: reading the record for announcing a change failed"), "\(text)")
    #expect(text.contains("wait_reason"), "the index's own words: \(text)")
    await manager.close()
  }
}
