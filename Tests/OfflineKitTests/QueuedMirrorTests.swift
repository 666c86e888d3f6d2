import Foundation
import OfflineHTTP
import TestSupport
import TestTiming
import Testing

@testable import OfflineKit

/// A source's mirrors kept with its content (issue 43, second layer): a queued download,
/// run by a later manager on the same store, fetches from them too; a mirror that is not
/// http(s) is refused when the source is given, naming it, and nothing is added.
@Suite(.serialized, .timed) struct QueuedMirrorTests {
  static let size = 16 << 20

  @Test func aQueuedDownloadRunByALaterManagerUsesTheKeptMirrors() async throws {
    let origin = try ManagerOrigin(files: ["f.bin": Self.size])
    let mirror = try ManagerOrigin(files: ["f.bin": Self.size])
    defer {
      origin.nginx.stop()
      mirror.nginx.stop()
    }
    #expect(origin.body("f.bin") == mirror.body("f.bin"))
    let fixture = try ManagerFixture()
    let source = OfflineSource(url: origin.url("f.bin"), id: "f", mirrors: [mirror.url("f.bin")])
    _ = try await fixture.manager.add([source], configuration: DownloadConfiguration())
    await fixture.manager.stop(suspendingRunning: false)

    let later = try fixture.reopened()
    #expect(try await runUntilIdle(later, timeout: .seconds(60)))
    let content = try await later.content(id: "f")
    #expect(try await content.state == .downloaded)
    let path = try await content.playbackURL().path
    #expect(FileManager.default.contents(atPath: path) == origin.body("f.bin"))
    let served = try mirror.nginx.accessLog().filter { $0.range != "bytes=0-0" }
    #expect(!served.isEmpty, "the kept mirror served ranges")
    #expect(served.allSatisfy { $0.status == 206 })
    await later.stop(suspendingRunning: false)
  }

  @Test func aMirrorThatIsNotHTTPIsRefusedWhenTheSourceIsGiven() async throws {
    let fixture = try ManagerFixture()
    let source = OfflineSource(
      url: URL(string: "http://127.0.0.1:9/f.bin")!,
      mirrors: [URL(string: "ftp://127.0.0.1/f.bin")!])
    do {
      _ = try await fixture.manager.add([source])
      Issue.record("a source with an ftp mirror was added")
    } catch {
      #expect(error.code == .invalidURL)
      #expect(error.description.contains("ftp://127.0.0.1/f.bin"))
    }
    #expect(try await fixture.manager.snapshots().isEmpty)
  }
}
