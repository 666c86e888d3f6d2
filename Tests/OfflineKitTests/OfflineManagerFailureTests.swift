import Foundation
import TestSupport
import TestTiming
import Testing

@testable import OfflineKit

/// What the manager does when the origin fails: retry what may pass, suspend what will not.
@Suite(.timed) struct OfflineManagerFailureTests {
  let body = TestData.bytes(count: 128 << 10, seed: 11)

  /// A content for `url` with its events recorded, queued for download.
  func queued(_ url: URL, in fixture: ManagerFixture) async throws
    -> (OfflineContent, EventRecorder)
  {
    let content = try await fixture.manager.content(for: OfflineSource(url: url, id: "file"))
    let recorder = EventRecorder(content.events)
    try await content.download()
    return (content, recorder)
  }

  @Test func twoServiceUnavailableAnswersAreRetriedUntilTheFileComes() async throws {
    let server = try FaultServer()
    defer { server.stop() }
    server.setRoute(
      "/file.bin",
      .sequence([.status(code: 503), .status(code: 503), .resource(.init(body: body))]))
    let fixture = try ManagerFixture()
    let (content, recorder) = try await queued(server.url("/file.bin"), in: fixture)
    try await fixture.running {
      #expect(await recorder.waitFor { $0.name == "finished" })
    }
    #expect(try await content.state == .downloaded)
    #expect(recorder.names.contains("waiting:retry"))
    #expect(!recorder.names.contains("error"))
    #expect(server.requests(for: "/file.bin").count == 3)
    let file = try await content.playbackURL()
    #expect(FileManager.default.contents(atPath: file.path) == body)
  }

  @Test func aNotFoundSuspendsAtOnceWithTheErrorAndNoRetry() async throws {
    let server = try FaultServer()
    defer { server.stop() }
    let fixture = try ManagerFixture()
    let (content, recorder) = try await queued(server.url("/missing.bin"), in: fixture)
    try await fixture.running {
      #expect(await recorder.waitFor { $0.name == "state:suspended" })
    }
    let snapshot = try await content.snapshot
    #expect(snapshot.state == .suspended)
    #expect(
      snapshot.lastError?.description.contains("404") == true,
      "\(snapshot.lastError?.description ?? "no error")")
    let error = recorder.events.compactMap { event -> OfflineError? in
      if case .finished(.failure(let error)) = event { return error }
      return nil
    }.first
    #expect(error?.kindName == "http404")
    // The snapshot's error is the event's, rebuilt from the store: a code, not a string.
    #expect(snapshot.lastError?.code == .httpStatus && snapshot.lastError?.httpStatus == 404)
    #expect(snapshot.lastError == error)
    let reopened = try await fixture.reopened().snapshot(id: content.id)
    #expect(reopened.lastError == error, "the next launch reads the same error")
    #expect(error?.contentID == "file")
    #expect(!recorder.names.contains("waiting:retry"))
    #expect(server.requests(for: "/missing.bin").count == 1)
  }

  @Test func anOriginRefusingConnectionsIsSuspendedAfterTheRetryLimit() async throws {
    let port = try FreePort.make()
    let fixture = try ManagerFixture()
    let url = URL(string: "http://127.0.0.1:\(port)/file.bin")!
    let (content, recorder) = try await queued(url, in: fixture)
    try await fixture.running {
      #expect(await recorder.waitFor { $0.name == "state:suspended" })
    }
    let snapshot = try await content.snapshot
    #expect(snapshot.state == .suspended)
    #expect(snapshot.lastError != nil)
    #expect(recorder.names.filter { $0 == "waiting:retry" }.count == 2)
    #expect(recorder.names.contains("error"))
  }

  @Test func aContentSuspendedAfterTheRetryLimitDownloadsWhenResumed() async throws {
    let server = try FaultServer()
    defer { server.stop() }
    server.setRoute(
      "/file.bin",
      .sequence([
        .status(code: 500), .status(code: 500), .status(code: 500), .resource(.init(body: body)),
      ]))
    let fixture = try ManagerFixture()
    let (content, recorder) = try await queued(server.url("/file.bin"), in: fixture)
    try await fixture.running {
      #expect(await recorder.waitFor { $0.name == "state:suspended" })
      let suspended = try await content.snapshot
      #expect(suspended.state == .suspended)
      #expect(suspended.lastError?.description.contains("500") == true)
      #expect(server.requests(for: "/file.bin").count == 3)

      try await content.resume()
      #expect(await recorder.waitFor { $0.name == "finished" })
    }
    let snapshot = try await content.snapshot
    #expect(snapshot.state == .downloaded)
    #expect(snapshot.lastError == nil)
    #expect(server.requests(for: "/file.bin").count == 4)
    let file = try #require(snapshot.state == .downloaded ? snapshot.fileURL : nil)
    #expect(FileManager.default.contents(atPath: file.path) == body)
  }
}
