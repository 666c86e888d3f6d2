import Foundation
import TestSupport
import Testing

/// A store and an nginx serving `small.bin` (256 KiB) and `large.bin` (8 MiB), driven through
/// the `offline` queue commands as a user drives them. Keep the fixture alive for the whole
/// test: its temporary folder and nginx go when it does.
final class QueueFixture {
  let folder: TemporaryDirectory
  let nginx: NginxServer
  let small: Data
  let large: Data
  var store: URL { folder.url.appending(path: "store") }

  /// Starts nginx; `limitRate` (such as `"1m"`, per connection) makes `large.bin` slow.
  init(limitRate: String? = nil) throws {
    folder = try TemporaryDirectory(prefix: "offlinekit-queue")
    let www = folder.url.appending(path: "www")
    try FileManager.default.createDirectory(at: www, withIntermediateDirectories: true)
    small = TestData.bytes(count: 256 << 10, seed: 21)
    large = TestData.bytes(count: 8 << 20, seed: 22)
    try small.write(to: www.appending(path: "small.bin"))
    try large.write(to: www.appending(path: "large.bin"))
    nginx = try NginxServer(root: www, options: .init(limitRate: limitRate))
    try nginx.start()
  }

  func url(_ name: String) -> String { nginx.url("/" + name).absoluteString }

  /// Runs `offline --store STORE ARGUMENTS` to the end (bounded).
  func offline(_ arguments: [String], timeout: Double = 30) async throws -> OfflineRun {
    try await InProcessOffline.run(["--store", store.path] + arguments, timeout: timeout)
  }

  /// Runs `offline add ARGUMENTS`, requires exit 0 and returns the printed ids.
  func add(_ arguments: [String]) async throws -> [String] {
    let result = try await offline(["add"] + arguments)
    try #require(result.status == 0, "add failed: \(result.stderrText)")
    return result.stdoutText.split(whereSeparator: \.isNewline).map(String.init)
  }

  /// Adds one URL and returns its id.
  func addOne(_ arguments: [String]) async throws -> String {
    let ids = try await add(arguments)
    try #require(ids.count == 1, "add printed \(ids)")
    return ids[0]
  }

  /// `offline ls --json`, parsed.
  func list() async throws -> [ListedContent] {
    let result = try await offline(["ls", "--json"])
    try #require(result.status == 0, "ls failed: \(result.stderrText)")
    let array = try JSONSerialization.jsonObject(with: result.stdout) as? [[String: Any]]
    return try #require(array, "ls --json printed \(result.stdoutText)").map(ListedContent.init)
  }

  /// The listed content with `id`, or nil.
  func entry(_ id: String) async throws -> ListedContent? {
    try await list().first { $0.id == id }
  }

  /// Runs the queue to its end (`run --quiet`, at most 40 s), expecting it to succeed and
  /// content `id` to be downloaded with `large`'s bytes; returns its listing after the run.
  @discardableResult
  func runExpectingLargeDownloaded(
    _ id: String, sourceLocation: SourceLocation = #_sourceLocation
  ) async throws -> ListedContent {
    let run = try await offline(["run", "--quiet"], timeout: 40)
    #expect(run.status == 0, "\(run.stderrText)", sourceLocation: sourceLocation)
    let done = try await #require(try entry(id), sourceLocation: sourceLocation)
    #expect(done.state == "downloaded", sourceLocation: sourceLocation)
    #expect(
      FileManager.default.contents(atPath: done.path) == large, sourceLocation: sourceLocation)
    return done
  }

  /// Polls `ls --json` until content `id` is in `state`, at most `seconds`; returns its
  /// last listing.
  @discardableResult
  func waitFor(_ id: String, state: String, seconds: Double = 20) async throws -> ListedContent? {
    var last: ListedContent?
    _ = try await Self.poll(seconds: seconds) {
      last = try await entry(id)
      return last?.state == state
    }
    return last
  }

  /// Where the runs started in another process write their standard error.
  var runLog: URL { folder.url.appending(path: "run.log") }

  /// Adds `large.bin`, starts `offline run` inside this process and waits until more than
  /// `bytes` of it are on disk: a download in progress, for a test whose point is not the
  /// process. The caller ends the run (`stopIfRunning()` in a `defer`); when the wait
  /// fails, the run is stopped here.
  func largeDownloadUnderWay(moreThan bytes: Int) async throws -> (id: String, run: InProcessRun) {
    let id = try await addOne([url("large.bin")])
    let run = InProcessRun(["run"], store: store)
    do {
      _ = try await waitForPart(of: id, moreThan: bytes)
    } catch {
      _ = await run.stop()
      throw error
    }
    return (id, run)
  }

  /// What the runs wrote so far, for failure messages.
  var runLogText: String { (try? String(contentsOf: runLog, encoding: .utf8)) ?? "" }

  /// The size of the `.part` file of `entry`, or nil when there is none.
  func partSize(_ entry: ListedContent) -> Int? {
    let attributes = try? FileManager.default.attributesOfItem(atPath: entry.path + ".part")
    return (attributes?[.size] as? NSNumber)?.intValue
  }

  /// Waits (bounded) until the `.part` of content `id` (its file named `file`) holds more
  /// than `bytes`. It looks at the file only: a command opening the store while `offline run`
  /// starts could make that run fail (see `QueueRunTests`).
  func waitForPart(of id: String, file: String = "large.bin", moreThan bytes: Int) async throws
    -> Int
  {
    // In the content's folder when it has one, else in the store's shared `files/`.
    let parts = [contentFolder(id), store.appending(path: "files")].map {
      $0.appending(path: file + ".part").path
    }
    var part = parts[1]
    var size = 0
    _ = await Self.poll(seconds: 20) {
      for candidate in parts {
        let attributes = try? FileManager.default.attributesOfItem(atPath: candidate)
        guard let found = (attributes?[.size] as? NSNumber)?.intValue else { continue }
        (part, size) = (candidate, found)
      }
      return size > bytes
    }
    try #require(size > bytes, "\(part) stayed at \(size) bytes; run: \(runLogText)")
    return size
  }

  /// The content's folder, `<store>/content/<id>`.
  func contentFolder(_ id: String) -> URL {
    store.appending(path: "content").appending(path: id)
  }

  /// What is on disk of content `id` (its file named `file`): its folder, or the flat file
  /// and its part in the store's shared `files/`.
  func leftovers(of id: String, file: String = "large.bin") -> [String] {
    let shared = store.appending(path: "files").appending(path: file).path
    return [contentFolder(id).path, shared, shared + ".part"].filter {
      FileManager.default.fileExists(atPath: $0)
    }
  }

  /// Calls `condition` every 50 ms until it holds or `seconds` pass; returns whether it held.
  static func poll(seconds: Double, _ condition: () async throws -> Bool) async rethrows -> Bool {
    let deadline = ContinuousClock.now + .milliseconds(Int64(seconds * 1000))
    while true {
      if try await condition() { return true }
      if ContinuousClock.now >= deadline { return false }
      try? await Task.sleep(for: .milliseconds(50))
    }
  }
}

/// One object of `offline ls --json`.
struct ListedContent {
  let object: [String: Any]

  var keys: Set<String> { Set(object.keys) }
  var id: String { object["id"] as? String ?? "" }
  var url: String { object["url"] as? String ?? "" }
  var state: String { object["state"] as? String ?? "" }
  var path: String { object["path"] as? String ?? "" }
  var bytes: Int? { (object["bytes"] as? NSNumber)?.intValue }
  var total: Int? { (object["total"] as? NSNumber)?.intValue }
  var reason: String? { object["waitReason"] as? String }
  var lastErrorCode: String? { object["lastErrorCode"] as? String }
  var lastError: String? { object["lastError"] as? String }
  var title: String? { object["title"] as? String }
}

extension Process {
  /// Kills the process if a failed expectation left it running (without waiting: its end is
  /// collected by Foundation, and a `defer` cannot await).
  func killIfRunning() {
    if isRunning { kill(processIdentifier, SIGKILL) }
  }
}
