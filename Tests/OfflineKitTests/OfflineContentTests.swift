import Foundation
import TestSupport
import TestTiming
import Testing

@testable import OfflineKit

/// Contents as an app sees them: one per source, their ids, and the calls each state refuses.
@Suite(.timed) struct OfflineContentTests {
  let url = URL(string: "http://127.0.0.1:9/movie.mp4")!

  @Test func theSameURLGivesTheSameContent() async throws {
    let fixture = try ManagerFixture()
    let first = try await fixture.manager.content(for: OfflineSource(url: url, title: "Movie"))
    let again = try await fixture.manager.content(for: OfflineSource(url: url))
    #expect(again.id == first.id)
    #expect(try await fixture.manager.snapshots().count == 1)
    #expect(try await first.snapshot.title == "Movie")
  }

  /// Pins a bug: within one batch the URL is looked up only among stored contents, so a URL
  /// given twice (`offline add URL URL`) becomes two contents that download it twice.
  @Test func theSameURLTwiceInOneBatchGivesOneContent() async throws {
    let fixture = try ManagerFixture()
    let contents = try await fixture.manager.contents(
      for: [OfflineSource(url: url), OfflineSource(url: url)])
    #expect(Set(contents.map(\.id)).count == 1)
    #expect(try await fixture.manager.snapshots().count == 1)
  }

  @Test func theSameIDGivesTheSameContent() async throws {
    let fixture = try ManagerFixture()
    let first = try await fixture.manager.content(for: OfflineSource(url: url, id: "movie"))
    let again = try await fixture.manager.content(for: OfflineSource(url: url, id: "movie"))
    #expect(first.id == "movie")
    #expect(again.id == "movie")
    #expect(try await fixture.manager.snapshots().map(\.id) == ["movie"])
    #expect(try await first.state == .notDownloaded)
  }

  @Test func anIDTakenByAnotherURLIsRefused() async throws {
    let fixture = try ManagerFixture()
    _ = try await fixture.manager.content(for: OfflineSource(url: url, id: "movie"))
    let other = URL(string: "http://127.0.0.1:9/other.mp4")!
    do {
      _ = try await fixture.manager.content(for: OfflineSource(url: other, id: "movie"))
      Issue.record("a second URL took the id movie")
    } catch {
      guard case .duplicateID(let id) = error.kind else {
        Issue.record("unexpected \(error)")
        return
      }
      #expect(id == "movie")
    }
    #expect(try await fixture.manager.snapshot(id: "movie").url == url)
  }

  @Test func anFTPURLIsRefused() async throws {
    let fixture = try ManagerFixture()
    let ftp = URL(string: "ftp://127.0.0.1/movie.mp4")!
    do {
      _ = try await fixture.manager.content(for: OfflineSource(url: ftp))
      Issue.record("an ftp URL was accepted")
    } catch {
      guard case .invalidURL(let text) = error.kind else {
        Issue.record("unexpected \(error)")
        return
      }
      #expect(text == ftp.absoluteString)
    }
    #expect(try await fixture.manager.snapshots().isEmpty)
  }

  /// Pins a bug: the id names the content's folder (`<store>/content/<id>`) unchecked, so
  /// an id such as `../victim` lets a cancel delete a folder outside `content/`.
  @Test func anIDCannotReachOutsideTheContentFolder() async throws {
    let fixture = try ManagerFixture()
    let victim = fixture.store.appending(path: "victim/keep.txt")
    try FileManager.default.createDirectory(
      at: victim.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data("precious".utf8).write(to: victim)
    // A store that has downloaded before has its content folder.
    try FileManager.default.createDirectory(
      at: fixture.store.appending(path: "content"), withIntermediateDirectories: true)
    do {
      let content = try await fixture.manager.content(
        for: OfflineSource(url: url, id: "../victim"))
      try await content.download()
      try await content.cancel()
    } catch {
      // Refusing such an id is one right answer.
    }
    #expect(FileManager.default.contents(atPath: victim.path) == Data("precious".utf8))
  }

  @Test func forgetRemovesANotDownloadedContent() async throws {
    let fixture = try ManagerFixture()
    let content = try await fixture.manager.content(for: OfflineSource(url: url, id: "movie"))
    try await fixture.manager.forget(id: content.id)
    await #expect {
      try await fixture.manager.content(id: "movie")
    } throws: { error in
      (error as? OfflineError)?.code == .unknownContent
    }
    #expect(try await fixture.manager.snapshots().isEmpty)
  }

  @Test func forgetRefusesADownloadedContent() async throws {
    let origin = try ManagerOrigin()
    let fixture = try ManagerFixture()
    let content = try await fixture.manager.content(
      for: OfflineSource(url: origin.url("file.bin"), id: "file"))
    try await content.download()
    #expect(try await runUntilIdle(fixture.manager))
    #expect(try await content.state == .downloaded)

    await expectInvalidTransition(.delete, from: .downloaded) {
      () async throws(OfflineError) in try await fixture.manager.forget(id: "file")
    }
    #expect(try await content.state == .downloaded)
    _ = try await content.playbackURL()
    await fixture.manager.stop(suspendingRunning: false)
  }

  /// Every call of the API that the table has no row for, in each state an app can see.
  @Test func everyIllegalCallThrowsAndLeavesTheContentAsItWas() async throws {
    let origin = try ManagerOrigin()
    let fixture = try ManagerFixture()
    let manager = fixture.manager
    func content(_ id: String) async throws -> OfflineContent {
      try await manager.content(for: OfflineSource(url: origin.url("file.bin?\(id)"), id: id))
    }
    let downloaded = try await content("downloaded")
    try await downloaded.download()
    #expect(try await runUntilIdle(manager))
    await manager.stop(suspendingRunning: false)
    // Without a runner nothing moves: the other states stay put while we call.
    let fresh = try await content("fresh")
    let queued = try await content("queued")
    try await queued.download()
    let paused = try await content("paused")
    try await paused.download()
    try await paused.suspend()

    let legal: [OfflineState: Set<OfflineAction>] = [
      .notDownloaded: [.download], .downloading: [.suspend, .cancel],
      .suspended: [.resume, .cancel], .downloaded: [.delete],
    ]
    let cases: [(OfflineContent, OfflineState)] = [
      (fresh, .notDownloaded), (queued, .downloading), (paused, .suspended),
      (downloaded, .downloaded),
    ]
    for (content, state) in cases {
      #expect(try await content.state == state)
      for action in [OfflineAction.download, .suspend, .resume, .cancel, .delete]
      where !legal[state]!.contains(action) {
        let before = try await content.snapshot
        await expectInvalidTransition(action, from: state) { () async throws(OfflineError) in
          try await Self.call(action, on: content)
        }
        #expect(try await content.snapshot == before, "\(action) in \(state) changed it")
      }
    }
  }

  @Test func aLateSubscriberFirstHearsTheCurrentState() async throws {
    let fixture = try ManagerFixture()
    let content = try await fixture.manager.content(for: OfflineSource(url: url))
    try await content.download()
    try await content.suspend()
    var events = content.events.makeAsyncIterator()
    let first = await events.next()
    #expect(first?.name == "state:suspended")
  }

  static func call(_ action: OfflineAction, on content: OfflineContent)
    async throws(OfflineError)
  {
    switch action {
    case .download: try await content.download()
    case .suspend: try await content.suspend()
    case .resume: try await content.resume()
    case .cancel: try await content.cancel()
    case .delete: try await content.deleteOfflineData()
    }
  }
}
