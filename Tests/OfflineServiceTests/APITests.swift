import Foundation
import OfflineKit
import OfflineService
import TestSupport
import TestTiming
import Testing

/// Issue 16, item 3: the JSON API and its Server-Sent Events.
@Suite("offline serve's JSON API", .serialized, .timed)
struct APITests {
  // Pins: a client adds a file and a stream over the API and follows them on
  // /api/events: progress with speed and time left, then finished.
  @Test func addsAFileAndAStreamAndTheEventsReportProgressAndFinished() async throws {
    let fixture = try await ServiceFixture(nginx: .init(limitRate: "1m"))
    try TestData.writeFile(at: fixture.origin.file("big.bin"), count: 4 << 20)
    let files = try await HLSFixture.fmp4.make(in: fixture.origin.url.appending(path: "stream"))
    let events = try EventLog(url: fixture.url("/api/events"))
    defer { events.stop() }
    try await events.waitFor("retry: 2000")
    let body =
      #"{"urls": ["\#(fixture.nginx.url("/big.bin").absoluteString)", "#
      + #""\#(fixture.nginx.url("/stream" + files.entryPath).absoluteString)"], "variant": "lowest"}"#
    let added = try await Curl.fetch(
      fixture.url("/api/contents"),
      ["-X", "POST", "-H", "Content-Type: application/json", "--data-binary", body])
    #expect(added.status == 201, "\(added.text)")
    let contents = try JSONSerialization.jsonObject(with: added.body) as? [[String: Any]] ?? []
    let ids = contents.compactMap { $0["id"] as? String }
    #expect(ids.count == 2)
    #expect(contents.first?["actions"] as? [String] == ["pause", "cancel"])
    for id in ids { try await fixture.waitFor(id, .downloaded, timeout: 60) }
    for id in ids {
      try await events.waitFor("event: finished\ndata: {\"id\":\"\(id)\",\"ok\":true,")
    }
    let finished = events.events(named: "finished").compactMap { $0["path"] as? String }
    #expect(finished.count == 2 && finished.allSatisfy(FileManager.default.fileExists))
    let progress = events.events(named: "progress").filter { $0["id"] as? String == ids[0] }
    #expect(!progress.isEmpty)
    #expect(progress.contains { ($0["bytesPerSecond"] as? Double ?? 0) > 0 })
    #expect(progress.contains { $0["secondsRemaining"] is Double })
    #expect(progress.contains { $0["fraction"] is Double })
    let list = try await Curl.fetch(fixture.url("/api/contents"))
    let listed = try JSONSerialization.jsonObject(with: list.body) as? [[String: Any]] ?? []
    #expect(listed.map { $0["state"] as? String } == ["downloaded", "downloaded"])
    #expect(listed.first?["contentPath"] as? String == "/content/\(ids[0])/big.bin")
    #expect(listed.first?["actions"] as? [String] == ["delete"])
    // One projection of a content (issue 37, item 6): the API's object is the library's,
    // the one `offline ls --json` prints too.
    let projected = try JSONSerialization.jsonObject(
      with: ContentProjection.json(try await fixture.manager.snapshots()))
    #expect((projected as? NSArray)?.isEqual(to: listed) == true, "\(projected)\n\(listed)")
    await fixture.close()
  }

  // Pins: the API follows the state table; a refused transition is 409 naming the state
  // and changes nothing.
  @Test func followsTheStateTableAndRefusesOtherCallsWith409NamingTheState() async throws {
    let fixture = try await ServiceFixture(nginx: .init(limitRate: "100k"))
    try TestData.writeFile(at: fixture.origin.file("slow.bin"), count: 8 << 20)
    let id = try await fixture.add("/slow.bin")
    func call(_ action: String) async throws -> (Int, [String: Any]) {
      let reply = try await fixture.post("/api/contents/\(id)/\(action)", "")
      return (reply.status, reply.json as? [String: Any] ?? [:])
    }
    #expect(try await call("pause").1["state"] as? String == "suspended")
    let again = try await call("pause")
    #expect(again.0 == 409)
    #expect(again.1["state"] as? String == "suspended")
    #expect((again.1["error"] as? String)?.contains("suspended") == true)
    #expect(try await call("delete").0 == 409)
    #expect(try await call("forget").0 == 409)
    #expect(try await call("resume").1["state"] as? String == "downloading")
    #expect(try await call("download").1["state"] as? String == "downloading")
    #expect(try await call("cancel").0 == 200)
    try await fixture.waitFor(id, .notDownloaded)
    #expect(try await call("resume").1["state"] as? String == "notDownloaded")
    #expect(try await call("forget").0 == 200)
    #expect(try await Curl.fetch(fixture.url("/api/contents/\(id)")).status == 404)
    #expect(try await call("pause").0 == 404)
    #expect(try await fixture.manager.snapshots().isEmpty)
    await fixture.close()
  }

  // Pins: bad add requests are refused with a sentence, and add nothing.
  @Test func refusesBadRequestsWithASentenceAndAddsNothing() async throws {
    let fixture = try await ServiceFixture()
    let bodies = [
      "not json", #"{"urls": []}"#, #"{"urls": ["ftp://127.0.0.1/a"]}"#,
      #"{"urls": ["http://127.0.0.1/a"], "sha256": "abc"}"#,
      #"{"urls": ["http://127.0.0.1/a"], "variant": "best"}"#,
      #"{"urls": ["http://127.0.0.1/a", "http://127.0.0.1/b"], "id": "one"}"#,
      #"{"urls": ["http://127.0.0.1/a"], "id": "../x"}"#,
    ]
    for body in bodies {
      let reply = try await fixture.post("/api/contents", body)
      #expect(reply.status == 400, "\(body): \(reply.text)")
      #expect((reply.json as? [String: Any])?["error"] is String, "\(body)")
    }
    #expect(try await fixture.post("/api/contents/nothing/pause", "").status == 404)
    #expect(try await Curl.fetch(fixture.url("/api/contents"), ["-X", "PUT"]).status == 405)
    #expect(try await fixture.manager.snapshots().isEmpty)
    await fixture.close()
  }
}

/// `curl -N` reading `/api/events` into a file, in the background.
final class EventLog: Sendable {
  private let process: Process
  private let scratch: TemporaryDirectory
  private var file: URL { scratch.file("events") }

  init(url: String, arguments: [String] = []) throws {
    scratch = try TemporaryDirectory(prefix: "offlinekit-events")
    let output = scratch.file("events")
    _ = FileManager.default.createFile(atPath: output.path, contents: nil)
    process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
    process.arguments = ["-s", "-N", "--max-time", "120", "-o", output.path] + arguments + [url]
    try process.run()
  }

  /// Everything received so far.
  var text: String { (try? String(contentsOf: file, encoding: .utf8)) ?? "" }

  /// Waits (at most `timeout` seconds, polling with `Task.sleep`) until `fragment` has
  /// arrived.
  func waitFor(_ fragment: String, timeout: Double = 30) async throws {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
      if text.contains(fragment) { return }
      try await Task.sleep(for: .milliseconds(50))
    }
    throw FixtureError.timedOut("no '\(fragment)' in the events: \(text.suffix(2000))")
  }

  /// The data of every event called `name`, decoded.
  func events(named name: String) -> [[String: Any]] {
    text.components(separatedBy: "\n\n").compactMap { block in
      let lines = block.split(separator: "\n")
      guard lines.first == "event: \(name)", let data = lines.dropFirst().first,
        data.hasPrefix("data: ")
      else { return nil }
      return try? JSONSerialization.jsonObject(with: Data(data.dropFirst(6).utf8))
        as? [String: Any]
    }
  }

  /// Kills curl without waiting for it: nothing is left to read once it is gone, and a
  /// wait here (a `defer` cannot suspend) would hold a thread the service may need.
  func stop() {
    if process.isRunning { kill(process.processIdentifier, SIGKILL) }
  }
}
