import Foundation
import OfflineKit
import TestSupport
import TestTiming
import Testing

/// `offline add` and what `offline ls --json` shows of what it added.
@Suite(.ownThreads, .timed) struct QueueAddTests {
  @Test func addingAURLAgainPrintsTheSameID() async throws {
    let fixture = try QueueFixture()
    let first = try await fixture.addOne([fixture.url("small.bin")])
    let second = try await fixture.addOne([fixture.url("small.bin")])
    #expect(first == second)
    await #expect(try fixture.list().map(\.id) == [first])
  }

  @Test func addingANotDownloadedURLAgainQueuesItUnderItsID() async throws {
    let fixture = try QueueFixture()
    let id = try await fixture.addOne([fixture.url("small.bin")])
    await #expect(try fixture.offline(["cancel", id]).status == 0)
    await #expect(try fixture.entry(id)?.state == "notDownloaded")

    await #expect(try fixture.addOne([fixture.url("small.bin")]) == id)
    let queued = try await #require(try fixture.entry(id))
    #expect(queued.state == "downloading")
    #expect(queued.reason == "queued")
  }

  // Pins a bug: `OfflineManager.add` looks each URL up in the index before the new records
  // are inserted, so a URL given twice in one call (or twice in an `-i` list) became two
  // contents with two ids.
  @Test func oneAddGivenTheSameURLTwicePrintsOneIDTwice() async throws {
    let fixture = try QueueFixture()
    let ids = try await fixture.add([fixture.url("small.bin"), fixture.url("small.bin")])
    #expect(ids.count == 2)
    #expect(Set(ids).count == 1, "one URL got the ids \(ids)")
    await #expect(try fixture.list().count == 1)
  }

  @Test func addFromAFileOfThreeURLsPrintsThreeIDsInOrder() async throws {
    let fixture = try QueueFixture()
    let urls = ["a.bin", "b.bin", "c.bin"].map(fixture.url)
    let list = fixture.folder.file("urls.txt")
    try ("# three files\n" + urls.joined(separator: "\n") + "\n\n").write(
      to: list, atomically: true, encoding: .utf8)

    let ids = try await fixture.add(["-i", list.path])
    #expect(ids.count == 3)
    #expect(Set(ids).count == 3)
    let listed = try await fixture.list()
    #expect(listed.map(\.id) == ids)
    #expect(listed.map(\.url) == urls)
    #expect(listed.allSatisfy { $0.state == "downloading" && $0.reason == "queued" })
  }

  // Pins a bug: `add -i` read its list with `FileManager.contents(atPath:)`, which reads
  // nothing from a pipe, so `offline add -i <(grep ... list.txt)` failed with "cannot read
  // /dev/fd/63".
  @Test func addReadsItsListFromAPipe() async throws {
    let fixture = try QueueFixture()
    let urls = ["a.bin", "b.bin"].map(fixture.url)
    // `<(printf ...)` as bash makes it: a pipe named /dev/fd/N, its writer already done.
    let pipe = Pipe()
    pipe.fileHandleForWriting.write(Data(urls.map { $0 + "\n" }.joined().utf8))
    try pipe.fileHandleForWriting.close()
    defer { try? pipe.fileHandleForReading.close() }
    let named = "/dev/fd/\(pipe.fileHandleForReading.fileDescriptor)"
    let result = try await fixture.offline(["add", "-i", named])
    #expect(result.status == 0, "add said \(result.stderrText)")
    #expect(result.stdoutText.split(whereSeparator: \.isNewline).count == 2)
    await #expect(try fixture.list().map(\.url) == urls)
  }

  @Test func addReadsItsListFromStandardInput() async throws {
    let fixture = try QueueFixture()
    let urls = ["a.bin", "b.bin"].map(fixture.url)
    let result = try await InProcessOffline.run(
      ["add", "-i", "-"], store: fixture.store,
      stdin: .bytes(Data(("# two\n" + urls.joined(separator: "\n")).utf8)))
    #expect(result.status == 0, "add said \(result.stderrText)")
    await #expect(try fixture.list().map(\.url) == urls)
  }

  @Test func addKeepsTheGivenIDAndTitle() async throws {
    let fixture = try QueueFixture()
    let id = try await fixture.addOne([
      fixture.url("small.bin"), "--id", "movie-1", "--title", "Movie",
    ])
    #expect(id == "movie-1")
    await #expect(try fixture.entry("movie-1")?.title == "Movie")
  }

  @Test func listJSONHasTheKnownFieldsOnly() async throws {
    let fixture = try QueueFixture()
    let id = try await fixture.addOne([fixture.url("small.bin"), "--title", "Small"])
    let queued = try await #require(try fixture.entry(id))
    #expect(
      queued.keys.isSuperset(of: ["id", "url", "state", "bytes", "path", "waitReason", "title"]))
    #expect(!queued.keys.contains("total"))
    #expect(!queued.keys.contains("lastError"))
    #expect(queued.url == fixture.url("small.bin"))
    #expect(queued.bytes == 0)
    #expect(queued.path == fixture.store.appending(path: "files/small.bin").path)

    await #expect(try fixture.offline(["run", "--quiet"]).status == 0)
    let done = try await #require(try fixture.entry(id))
    #expect(done.keys.isSuperset(of: ["id", "url", "state", "bytes", "path", "total", "title"]))
    #expect(!done.keys.contains("waitReason"))
    #expect(done.total == fixture.small.count)
    #expect(done.title == "Small")

    let missing = try await fixture.addOne([fixture.url("missing.bin")])
    await #expect(try fixture.offline(["run", "--quiet"]).status == 1)
    let failed = try await #require(try fixture.entry(missing))
    #expect(failed.keys.isSuperset(of: ["id", "url", "state", "bytes", "path", "lastError"]))
    #expect(failed.lastErrorCode == "http404")
    #expect(!failed.keys.contains("title"))

    // One projection of a content (issue 37, item 6): what `ls --json` prints is the
    // library's object, the one the service's API shows too.
    let listed = try await fixture.offline(["ls", "--json"])
    let manager = try OfflineManager(directory: fixture.store)
    let projected = ContentProjection.json(try await manager.snapshots())
    await manager.close()
    let printed = try JSONSerialization.jsonObject(with: listed.stdout) as? NSArray
    let expected = try JSONSerialization.jsonObject(with: projected) as? NSArray
    #expect(printed != nil && printed == expected, "\(listed.stdoutText)")
  }

  @Test func aURLThatIsNotHTTPIsRefusedAndNothingIsAdded() async throws {
    let fixture = try QueueFixture()
    let result = try await fixture.offline(["add", fixture.url("small.bin"), "ftp://127.0.0.1/x"])
    #expect(result.status == 64)
    #expect(result.stderrText.contains("ftp://127.0.0.1/x"))
    await #expect(try fixture.list().isEmpty)
  }
}
