import Foundation
import TestSupport
import TestTiming
import Testing

@testable import OfflineKit

/// Work starts when asked (issue 37, item 3): with the default configuration a download,
/// a resume or an `add` works the queue without `start()`. Before, nothing downloaded until
/// the app called `start()`, and every sample had to say so.
@Suite(.timed) struct AutoStartTests {
  /// Waits (at most 15 s) until `content` is downloaded; its local file.
  static func downloaded(_ content: OfflineContent) async throws -> URL {
    try #require(await eventually { try await content.state == .downloaded }, "not downloaded")
    return try await content.playbackURL()
  }

  static func configuration() -> OfflineManager.Configuration {
    OfflineManager.Configuration(pollInterval: .milliseconds(50), minimumFreeSpace: 0)
  }

  @Test func aDownloadIsWorkedWithoutStart() async throws {
    let origin = try ManagerOrigin()
    let store = try TemporaryDirectory()
    let manager = try OfflineManager(directory: store.url, configuration: Self.configuration())
    let content = try await manager.content(for: OfflineSource(url: origin.url("file.bin")))
    try await content.download()

    let file = try await Self.downloaded(content)
    await manager.close()
    #expect(FileManager.default.contents(atPath: file.path) == origin.body("file.bin"))
  }

  @Test func anAddAndAResumeAreWorkedWithoutStart() async throws {
    let origin = try ManagerOrigin(files: ["a.bin": 64 << 10, "b.bin": 64 << 10])
    let store = try TemporaryDirectory()
    var queued = Self.configuration()
    queued.startsWhenAsked = false
    let first = try OfflineManager(directory: store.url, configuration: queued)
    let b = try await first.content(for: OfflineSource(url: origin.url("b.bin"), id: "b"))
    try await b.download()
    try await b.suspend()
    await first.close()

    let manager = try OfflineManager(directory: store.url, configuration: Self.configuration())
    let added = try await manager.add([OfflineSource(url: origin.url("a.bin"), id: "a")])
    _ = try await Self.downloaded(added[0])
    let suspended = try await manager.content(id: "b")
    try await suspended.resume()
    _ = try await Self.downloaded(suspended)
    await manager.close()
    #expect(try origin.nginx.accessLog().count == 2)
  }

  /// The command line's `add` queues without working: `startsWhenAsked` false.
  @Test func withoutStartsWhenAskedNothingIsFetchedUntilStart() async throws {
    let origin = try ManagerOrigin()
    let store = try TemporaryDirectory()
    var configuration = Self.configuration()
    configuration.startsWhenAsked = false
    let manager = try OfflineManager(directory: store.url, configuration: configuration)
    let content = try await manager.content(for: OfflineSource(url: origin.url("file.bin")))
    try await content.download()
    try await Task.sleep(for: .milliseconds(300))  // six polls' worth: nothing may start
    #expect(try origin.nginx.accessLog().isEmpty)
    #expect(try await content.snapshot.bytes == 0)

    try await manager.start()
    _ = try await Self.downloaded(content)
    await manager.close()
    #expect(try origin.nginx.accessLog().count == 1)
  }

  /// A manager in another process works the queue: a download asked for here is left to
  /// it, and it starts it; asking does not fail for its lock.
  @Test func aDownloadAskedWhereAnotherManagerWorksTheQueueIsWorkedThere() async throws {
    let origin = try ManagerOrigin()
    let store = try TemporaryDirectory()
    let runner = try OfflineManager(directory: store.url, configuration: Self.configuration())
    try await runner.start()
    let other = try OfflineManager(directory: store.url, configuration: Self.configuration())
    let content = try await other.content(for: OfflineSource(url: origin.url("file.bin")))
    try await content.download()
    #expect(await !other.runner.holdsLock, "the runner is the other manager")

    let onRunner = try await runner.content(id: content.id)
    _ = try await Self.downloaded(onRunner)
    await other.close()
    await runner.close()
  }
}
