import Foundation
import OfflineHTTP
import OfflineStore
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

  /// A mirror's token (here in its query, as `offline serve`'s or a signed CDN link's) is
  /// kept in the store's private file only: what the index keeps of the sources, and what
  /// the snapshot shows, has no query. (Session 40: the index kept each source's whole URL.)
  @Test func aMirrorsTokenIsNeverKeptInTheIndex() async throws {
    let origin = try ManagerOrigin(files: ["f.bin": Self.size])
    let mirror = try ManagerOrigin(files: ["f.bin": Self.size])
    defer {
      origin.nginx.stop()
      mirror.nginx.stop()
    }
    let token = "token=s3cr3t-\(UUID().uuidString)"
    let tokened = try #require(URL(string: mirror.url("f.bin").absoluteString + "?" + token))
    let fixture = try ManagerFixture()
    let source = OfflineSource(url: origin.url("f.bin"), id: "f", mirrors: [tokened])
    _ = try await fixture.manager.add([source], configuration: DownloadConfiguration())
    #expect(try await runUntilIdle(fixture.manager, timeout: .seconds(60)))
    let content = try await fixture.manager.content(id: "f")
    #expect(try await content.state == .downloaded)
    let shown = try #require(try await content.snapshot.sources)
    #expect(shown.count == 2)
    #expect(shown.allSatisfy { !$0.url.absoluteString.contains("s3cr3t") }, "\(shown)")
    await fixture.manager.stop(suspendingRunning: false)
    let index = try OfflineIndex(directory: fixture.store)
    let kept = try index.contents.sourceReports(id: "f")
    #expect(kept.count == 2)
    #expect(kept.allSatisfy { !$0.url.contains("s3cr3t") }, "\(kept.map(\.url))")
    // Nor anywhere in the index's files (the WAL included).
    let files = try FileManager.default.contentsOfDirectory(atPath: fixture.store.path)
      .filter { $0.hasPrefix(OfflineIndex.fileName) }
    #expect(!files.isEmpty)
    for name in files {
      let bytes = try Data(contentsOf: fixture.store.appending(path: name))
      #expect(bytes.range(of: Data("s3cr3t".utf8)) == nil, "\(name) keeps the token")
    }
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
