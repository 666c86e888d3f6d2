import Foundation
import OfflineStore
import TestSupport
import TestTiming
import Testing

@testable import OfflineKit

/// Cache-or-download: one request per key however many ask, keys that never collide, and
/// damaged files that are misses, not errors.
@Suite(.timed) struct CacheLoadingTests {
  @Test func fiftyConcurrentRequestsForOneURLMakeOneRequest() async throws {
    let fixture = try CacheFixture(files: ["thumb.jpg": 200_000])
    let cache = try fixture.cache()
    let url = fixture.url("thumb.jpg")
    let results = try await withThrowingTaskGroup(of: FileCache.Loaded<URL>.self) { group in
      for _ in 0..<50 { group.addTask { try await cache.fileURL(for: url) } }
      return try await group.reduce(into: []) { $0.append($1) }
    }

    #expect(results.count == 50)
    #expect(Set(results.map(\.value)).count == 1)
    #expect(results.filter { $0.source == .downloaded }.count >= 1)
    let body = fixture.body("thumb.jpg", size: 200_000)
    #expect(FileManager.default.contents(atPath: results[0].value.path) == body)
    try await Task.sleep(for: .milliseconds(300))  // a second request would be logged by now
    #expect(try await fixture.requests(atLeast: 1).count == 1)
  }

  @Test func aSecondRequestIsAHitAndSendsNothing() async throws {
    let fixture = try CacheFixture(files: ["a.json": 5_000])
    let cache = try fixture.cache()
    let first = try await cache.data(for: fixture.url("a.json"))
    let second = try await cache.data(for: fixture.url("a.json"))

    #expect(first.source == .downloaded)
    #expect(second.source == .hit)
    #expect(second.value == fixture.body("a.json", size: 5_000))
    #expect(try await fixture.requests(atLeast: 1).count == 1)
  }

  @Test func urlsThatShareTheirLastPathComponentNeverCollide() async throws {
    let fixture = try CacheFixture(files: ["a/file.json": 1_000, "b/file.json": 1_500])
    let cache = try fixture.cache()
    let a = try await cache.data(for: fixture.url("a/file.json"))
    let b = try await cache.data(for: fixture.url("b/file.json"))

    #expect(a.value == fixture.body("a/file.json", size: 1_000))
    #expect(b.value == fixture.body("b/file.json", size: 1_500))
    let files = try await cache.entries().map(\.fileURL.lastPathComponent)
    #expect(files.count == 2)
    #expect(files.allSatisfy { $0.count == 64 && $0.allSatisfy(\.isHexDigit) })
  }

  @Test func aCustomKeySharesOneEntryAcrossRotatingTokens() async throws {
    let fixture = try CacheFixture(files: ["doc.pdf": 3_000])
    let cache = try fixture.cache()
    let first = try await cache.fileURL(for: fixture.url("doc.pdf?token=one"), key: "doc")
    let second = try await cache.fileURL(for: fixture.url("doc.pdf?token=two"), key: "doc")

    #expect(first.value == second.value)
    #expect(second.source == .hit)
    #expect(try await fixture.requests(atLeast: 1).count == 1)
  }

  @Test func aMissingFileIsAMissNotAnError() async throws {
    let fixture = try CacheFixture(files: ["x.bin": 10_000])
    let cache = try fixture.cache()
    let first = try await cache.fileURL(for: fixture.url("x.bin"))
    try FileManager.default.removeItem(at: first.value)
    let again = try await cache.fileURL(for: fixture.url("x.bin"))

    #expect(again.source == .downloaded)
    #expect(FileManager.default.contents(atPath: again.value.path)?.count == 10_000)
    #expect(try await fixture.requests(atLeast: 2).count == 2)
  }

  @Test func aTruncatedFileIsAMissNotAnError() async throws {
    let fixture = try CacheFixture(files: ["x.bin": 10_000])
    let cache = try fixture.cache()
    let first = try await cache.fileURL(for: fixture.url("x.bin"))
    try Data("short".utf8).write(to: first.value)
    let again = try await cache.data(for: fixture.url("x.bin"))

    #expect(again.value == fixture.body("x.bin", size: 10_000))
    #expect(try await fixture.requests(atLeast: 2).count == 2)
  }

  @Test func aHitIsRecordedInTheIndexOnlyWithTheNextBatch() async throws {
    let fixture = try CacheFixture(files: ["x.bin": 1_000])
    let cache = try fixture.cache()
    let url = fixture.url("x.bin")
    _ = try await cache.fileURL(for: url)
    // A hit and a forced batch now, so the next batch is due by count or by time only from
    // here: under load the miss above once took longer than the batch interval.
    _ = try await cache.fileURL(for: url)
    await cache.flushUsage()
    let key = try #require(try await cache.entries().first?.key)
    let before = try #require(try fixture.index().cache.entry(key: key)).lastUsedAt
    try await Task.sleep(for: .milliseconds(20))
    _ = try await cache.fileURL(for: url)

    #expect(try fixture.index().cache.entry(key: key)?.lastUsedAt == before)
    await cache.flushUsage()
    #expect(try #require(try fixture.index().cache.entry(key: key)).lastUsedAt > before)
  }

  @Test func aServerErrorIsAnErrorAndCachesNothing() async throws {
    let fixture = try CacheFixture(files: [:])
    let cache = try fixture.cache()
    await #expect(throws: FileCache.Error.self) {
      try await cache.data(for: fixture.url("missing.json"))
    }
    #expect(try await cache.entries().isEmpty)
  }
}
