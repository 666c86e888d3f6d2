import Foundation
import TestSupport
import TestTiming
import Testing

@testable import OfflineKit

/// The offline manager: download end to end against nginx; pause, resume, cancel and delete
/// against a scripted origin whose response is held where the test acts.
@Suite(.timed) struct OfflineManagerTests {
  /// Waits until the recorded events report bytes received.
  static func waitForBytes(_ recorder: EventRecorder) async -> Bool {
    await recorder.waitFor { ($0.progressBytes ?? 0) > 0 }
  }

  @Test func aDownloadEndsDownloadedWithItsEventsInOrderAndTheServersBytes() async throws {
    let origin = try await offPool {
      try ManagerOrigin(files: ["file.bin": 1 << 20], options: .init(limitRate: "2m"))
    }
    let fixture = try ManagerFixture()
    let (content, recorder) = try await fixture.startDownload(of: origin, "file.bin", id: "file")
    try await fixture.running {
      #expect(await recorder.waitFor { $0.name == "finished" })
    }

    let names = recorder.names
    #expect(names.first == "state:notDownloaded")
    let order = ["state:downloading", "progress", "state:downloaded", "finished"]
    let positions = order.map { names.firstIndex(of: $0) }
    #expect(!positions.contains(nil), "events: \(names)")
    let found = positions.compactMap { $0 }
    #expect(found == found.sorted(), "events out of order: \(names)")
    let bytes = recorder.events.compactMap(\.progressBytes)
    #expect(bytes == bytes.sorted(), "progress moved backwards: \(bytes)")

    let file = try await content.playbackURL()
    #expect(file == fixture.file("file.bin", of: "file"))
    #expect(file.isFileURL)
    #expect(FileManager.default.contents(atPath: file.path) == origin.body("file.bin"))
    #expect(try await content.snapshot.bytes == 1 << 20)

    var late = content.events.makeAsyncIterator()
    #expect(await late.next()?.name == "state:downloaded")
  }

  /// A response held at 64 KiB stands in for a throttled origin: the suspend comes while
  /// the download is under way, whatever the machine's speed.
  @Test func suspendKeepsThePartAndResumeGoesOnWithARangeRequest() async throws {
    let origin = ScriptedOrigin(files: ["file.bin": 4 << 20])
    let gate = origin.holding("file.bin", atOffset: 64 << 10)
    let fixture = try origin.fixture()
    let (content, recorder) = try await fixture.startDownload(of: origin, "file.bin", id: "file")
    try await fixture.running {
      #expect(await gate.reached())
      #expect(await Self.waitForBytes(recorder))
      try await content.suspend()
      #expect(try await content.state == .suspended)
      #expect(await recorder.waitFor { $0.name == "state:suspended" })
      let part = fixture.file("file.bin.part", of: "file").path
      let kept = try FileManager.default.attributesOfItem(atPath: part)[.size] as? Int ?? 0
      #expect(kept == 64 << 10)
      await #expect {
        try await content.playbackURL()
      } throws: { ($0 as? OfflineError)?.code == .notPlayable }

      try await content.resume()
      #expect(try await content.state == .downloading)
      #expect(
        await recorder.waitFor(afterLast: "state:suspended") { $0.name == "state:downloading" })
      #expect(await recorder.waitFor { $0.name == "finished" })
    }
    #expect(try await content.state == .downloaded)
    let file = try await content.playbackURL()
    #expect(FileManager.default.contents(atPath: file.path) == origin.body("file.bin"))
    let requests = origin.transport.requests
    #expect(requests.count == 2)
    #expect(requests.last?.range == "bytes=\(64 << 10)-", "the resumed request had no Range")
    #expect(requests.last?.ifRange == "\"v1\"")
  }

  @Test(arguments: [false, true])
  func cancelDeletesEveryPartialByte(afterSuspending: Bool) async throws {
    let origin = ScriptedOrigin(files: ["file.bin": 4 << 20])
    let gate = origin.holding("file.bin")
    let fixture = try origin.fixture()
    let (content, recorder) = try await fixture.startDownload(of: origin, "file.bin", id: "file")
    try await fixture.running {
      #expect(await gate.reached())
      #expect(await Self.waitForBytes(recorder))
      if afterSuspending {
        try await content.suspend()
        #expect(try await content.state == .suspended)
      }
      try await content.cancel()
      #expect(try await eventually { try await content.state == .notDownloaded })
      #expect(await recorder.waitFor { $0.name == "canceled" })
    }
    #expect(!FileManager.default.fileExists(atPath: fixture.contentFolder("file").path))
    #expect(!FileManager.default.fileExists(atPath: fixture.file("file.bin.part", of: "file").path))
    #expect(try fixture.journalEntries(of: "file").isEmpty)
    #expect(try await content.snapshot.bytes == 0)
  }

  @Test func deleteRemovesTheFileAndTheContentCanBeDownloadedAgain() async throws {
    let origin = ScriptedOrigin()
    let fixture = try origin.fixture()
    let content = try await fixture.manager.content(
      for: OfflineSource(url: origin.url("file.bin"), id: "file"))
    try await fixture.running {
      try await content.download()
      #expect(try await eventually { try await content.state == .downloaded })
      let file = try await content.playbackURL()

      try await content.deleteOfflineData()
      #expect(try await content.state == .notDownloaded)
      await #expect {
        try await content.playbackURL()
      } throws: { ($0 as? OfflineError)?.code == .notPlayable }
      #expect(!FileManager.default.fileExists(atPath: file.path))
      #expect(try fixture.journalEntries(of: "file").isEmpty)

      try await content.download()
      #expect(try await eventually { try await content.state == .downloaded })
      #expect(FileManager.default.contents(atPath: file.path) == origin.body("file.bin"))
    }
  }

  @Test func twoSubscribersBothHearFinished() async throws {
    let origin = ScriptedOrigin()
    let fixture = try origin.fixture()
    let content = try await fixture.manager.content(
      for: OfflineSource(url: origin.url("file.bin"), id: "file"))
    let first = EventRecorder(content.events)
    let second = EventRecorder(content.events)
    try await content.download()
    try await fixture.running {
      #expect(await first.waitFor { $0.name == "finished" })
      #expect(await second.waitFor { $0.name == "finished" })
    }
    #expect(first.names.filter { $0 != "progress" } == second.names.filter { $0 != "progress" })
  }
}
