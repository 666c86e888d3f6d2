import Foundation
import OfflineHTTP
import TestSupport
import TestTiming
import Testing

@testable import OfflineKit

/// A content's request options are kept in the store (issue 13, item 2), so the next
/// launch's manager sends them.
@Suite(.serialized, .timed) struct StoredRequestOptionTests {
  static let body = TestData.bytes(count: 120_000, seed: 47)

  static var bearer: RequestOptions {
    var options = RequestOptions()
    options.headers.add(name: "Authorization", value: "Bearer \(NginxGates.token)")
    return options
  }

  /// Pins: the options were kept in the memory of the manager they were given to, so the
  /// next launch's manager, given the source without them, was answered 401.
  @Test func aReopenedManagerSendsTheOptionsGivenToAnEarlierOne() async throws {
    let origin = try await GatedOrigin(files: ["a.bin": Self.body])
    let fixture = try ManagerFixture()
    let url = origin.fileURL("a.bin", in: "bearer")
    _ = try await fixture.manager.content(
      for: OfflineSource(url: url, id: "movie", requestOptions: Self.bearer))
    await fixture.manager.close()

    let manager = try fixture.reopened()
    let content = try await manager.content(for: OfflineSource(url: url, id: "movie"))
    try await content.download()
    #expect(try await runUntilIdle(manager))
    let snapshot = try await content.snapshot
    #expect(snapshot.state == .downloaded, "\(snapshot.lastError?.description ?? "")")
    #expect(FileManager.default.contents(atPath: snapshot.fileURL.path) == Self.body)
    await manager.close()
  }

  /// Kept options that cannot be read are an error naming the file, never a download
  /// without them: the content is suspended and nothing is requested.
  @Test func unreadableKeptOptionsSuspendTheContentAndFetchNothing() async throws {
    let origin = try await GatedOrigin(files: ["a.bin": Self.body])
    let fixture = try ManagerFixture()
    let content = try await fixture.manager.content(
      for: OfflineSource(
        url: origin.fileURL("a.bin", in: "bearer"), id: "movie", requestOptions: Self.bearer))
    let file = fixture.store.appending(path: "secrets/movie.json")
    try Data("{\"version\": 99}".utf8).write(to: file)
    try await content.download()
    #expect(try await runUntilIdle(fixture.manager))
    let snapshot = try await content.snapshot
    #expect(snapshot.state == .suspended)
    #expect(
      snapshot.lastError?.description.contains("request options") == true,
      "\(snapshot.lastError?.description ?? "")")
    #expect(
      snapshot.lastError?.description.contains(file.path) == true,
      "\(snapshot.lastError?.description ?? "")")
    #expect(try origin.server.accessLog().isEmpty)
  }

  /// Forgetting a content removes its kept options with it.
  @Test func forgettingAContentRemovesItsKeptOptions() async throws {
    let fixture = try ManagerFixture()
    let url = URL(string: "http://127.0.0.1:9/a.bin")!
    _ = try await fixture.manager.content(
      for: OfflineSource(url: url, id: "movie", requestOptions: Self.bearer))
    let file = fixture.store.appending(path: "secrets/movie.json")
    #expect(FileManager.default.fileExists(atPath: file.path))
    try await fixture.manager.forget(id: "movie")
    #expect(!FileManager.default.fileExists(atPath: file.path))
  }
}
