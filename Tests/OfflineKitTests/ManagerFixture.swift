import Foundation
import OfflineHTTP
import OfflineLocks
import OfflineStore
import TestSupport
import Testing

@testable import OfflineKit

/// A store in a temporary folder and an offline manager on it, with fast polling and retries
/// so tests of the queue never wait long.
struct ManagerFixture {
  let folder: TemporaryDirectory
  let store: URL
  let manager: OfflineManager
  /// The transport of the manager (and of ``reopened()``); nil: the platform's.
  let transport: (any HTTPTransporting)?

  init(parallelDownloads: Int = 3, transport: (any HTTPTransporting)? = nil) throws {
    folder = try TemporaryDirectory(prefix: "offlinekit-manager")
    store = folder.url.appending(path: "store", directoryHint: .isDirectory)
    self.transport = transport
    manager = try OfflineManager(
      directory: store,
      configuration: Self.configuration(parallelDownloads: parallelDownloads, transport: transport))
  }

  /// Polls every 50 ms, retries after 50 to 200 ms, three attempts, no free-space floor;
  /// the queue is worked from ``OfflineManager/start()`` on, so a test decides when
  /// (``AutoStartTests`` covers the default, work that starts when asked).
  static func configuration(
    parallelDownloads: Int = 3, transport: (any HTTPTransporting)? = nil
  ) -> OfflineManager.Configuration {
    var configuration = OfflineManager.Configuration(
      parallelDownloads: parallelDownloads,
      retry: RetryPolicy(
        maximumAttempts: 3, initialDelay: .milliseconds(50), maximumDelay: .milliseconds(200)),
      pollInterval: .milliseconds(50), minimumFreeSpace: 0, transport: transport)
    configuration.startsWhenAsked = false
    return configuration
  }

  /// A new manager on the same store, as the next launch of the app would open it.
  func reopened() throws -> OfflineManager {
    try OfflineManager(directory: store, configuration: Self.configuration(transport: transport))
  }

  /// Overwrites the index of the store at `store` with 8 KiB of garbage and removes its WAL
  /// and shared-memory files, as a bad card or a stray program would leave it: the next
  /// manager must quarantine it and rebuild from the contents' manifests.
  static func destroyIndex(of store: URL, seed: UInt64) throws {
    let index = store.appending(path: OfflineIndex.fileName)
    try TestData.bytes(count: 8 << 10, seed: seed).write(to: index)
    for suffix in ["-wal", "-shm"] {
      try? FileManager.default.removeItem(atPath: index.path + suffix)
    }
  }

  /// `<store>/content/<id>`.
  func contentFolder(_ id: String) -> URL {
    store.appending(path: "content").appending(path: id, directoryHint: .isDirectory)
  }

  /// `name` of content `id`: in its folder when it has one, else in the shared `files/`.
  func file(_ name: String, of id: String) -> URL {
    StoreFiles.file(name, of: id, in: store)
  }

  /// The transfer journal's entries that belong to content `id` (a flat file's: its own).
  func journalEntries(of id: String) throws -> [TransferRecord] {
    let index = try OfflineIndex(directory: store)
    var prefix = contentFolder(id).path + "/"
    if let record = try index.contents.record(id: id), record.flatFile {
      prefix = store.appending(path: "files").appending(path: record.fileName).path
    }
    return try index.transfers.all().filter { $0.destination.hasPrefix(prefix) }
  }

  /// Makes the content for `url` with `id` and subscribes to its events, before anything is
  /// queued, so the recorder sees every event from the current state on.
  func watched(_ url: URL, id: String) async throws -> (OfflineContent, EventRecorder) {
    let content = try await manager.content(for: OfflineSource(url: url, id: id))
    return (content, EventRecorder(content.events))
  }

  /// Makes the content for `file` on `origin` with `id`, subscribes to its events, and
  /// queues its download.
  func startDownload(of origin: ManagerOrigin, _ file: String, id: String) async throws
    -> (OfflineContent, EventRecorder)
  {
    let (content, recorder) = try await watched(origin.url(file), id: id)
    try await content.download()
    return (content, recorder)
  }

  /// Runs `body` with the queue started, and stops it (leaving downloads as they are) even
  /// when `body` throws.
  func running<T>(_ body: () async throws -> T) async throws -> T {
    try await manager.start()
    do {
      let result = try await body()
      await manager.stop(suspendingRunning: false)
      return result
    } catch {
      await manager.stop(suspendingRunning: false)
      throw error
    }
  }
}

/// nginx serving generated files from a folder that lives as long as the origin.
struct ManagerOrigin {
  let root: TemporaryDirectory
  let nginx: NginxServer

  /// Serves `files` (name → size; the bytes are `TestData.bytes(count:seed:)` with the
  /// name's position as the seed).
  init(files: [String: Int] = ["file.bin": 256 << 10], options: NginxServer.Options = .init())
    throws
  {
    root = try TemporaryDirectory(prefix: "offlinekit-www")
    for (name, size) in files {
      try Self.body(of: name, size: size).write(to: root.file(name))
    }
    nginx = try NginxServer(root: root.url, options: options)
    try nginx.start()
  }

  static func body(of name: String, size: Int) -> Data {
    TestData.bytes(count: size, seed: UInt64(name.utf8.reduce(0) { $0 &+ Int($1) }))
  }

  func url(_ name: String) -> URL { nginx.url("/" + name) }

  func body(_ name: String) -> Data? { FileManager.default.contents(atPath: root.file(name).path) }
}

/// Collects the events of one stream, in order, while the test goes on.
final class EventRecorder: Sendable {
  private let storage = Locked<[OfflineContent.Event]>([])
  private let task: Task<Void, Never>

  init(_ stream: OfflineEvents<OfflineContent.Event>) {
    let storage = self.storage
    task = Task {
      for await event in stream { storage.withLock { $0.append(event) } }
    }
  }

  deinit { task.cancel() }

  var events: [OfflineContent.Event] { storage.withLock { $0 } }

  /// The events as short names, such as `state:downloading`, `progress`, `finished`.
  var names: [String] { events.map(\.name) }

  /// Waits (at most `timeout`) until an event satisfies `match`.
  func waitFor(
    timeout: Duration = .seconds(15), _ match: (OfflineContent.Event) -> Bool
  ) async -> Bool {
    await eventually(timeout: timeout) { self.events.contains(where: match) }
  }

  /// Waits (at most `timeout`) until an event after the last one named `earlier` satisfies
  /// `match`: a resume, say, is the `state:downloading` after the `state:suspended`.
  func waitFor(
    afterLast earlier: String, timeout: Duration = .seconds(15),
    _ match: @escaping (OfflineContent.Event) -> Bool
  ) async -> Bool {
    await eventually(timeout: timeout) {
      let events = self.events
      guard let last = events.lastIndex(where: { $0.name == earlier }) else { return false }
      return events[(last + 1)...].contains(where: match)
    }
  }
}

extension OfflineContent.Event {
  /// A short name for comparing orders of events: `state:<state>` for a change, or
  /// `waiting:<reason>` for one that holds a download up (network, storage, a retry);
  /// `finished`, `error` or `canceled` for an attempt's end; `progress`, `restarted`,
  /// `keysRenewed`.
  var name: String {
    switch self {
    case .changed(let snapshot):
      switch (snapshot.state, snapshot.waitReason) {
      case (.downloading, .network?), (.downloading, .storage?), (.downloading, .retry?):
        "waiting:\(snapshot.waitReason?.name ?? "")"
      default: "state:\(snapshot.state.rawValue)"
      }
    case .progress: "progress"
    case .restarted: "restarted"
    case .finished(.success): "finished"
    case .finished(.failure(let error)): error.code == .canceled ? "canceled" : "error"
    case .keysRenewed: "keysRenewed"
    }
  }

  /// The snapshot of a `changed` event; nil for the other events.
  var snapshot: OfflineContent.Snapshot? {
    if case .changed(let snapshot) = self { return snapshot }
    return nil
  }

  /// The bytes of a progress event; nil for the other events.
  var progressBytes: Int64? {
    if case .progress(let progress) = self { return progress.bytes }
    return nil
  }
}

/// Polls `condition` every 20 ms until it holds or `timeout` passes; returns whether it held.
func eventually(
  timeout: Duration = .seconds(15), _ condition: () async throws -> Bool
) async rethrows -> Bool {
  let deadline = ContinuousClock.now + timeout
  while ContinuousClock.now < deadline {
    if try await condition() { return true }
    try? await Task.sleep(for: .milliseconds(20))
  }
  return try await condition()
}

/// Runs `manager.runUntilIdle()`, giving up (and cancelling it) after `timeout`; returns
/// whether it came back by itself.
func runUntilIdle(_ manager: OfflineManager, timeout: Duration = .seconds(15)) async throws
  -> Bool
{
  let done = Locked(false)
  let work = Task {
    defer { done.withLock { $0 = true } }
    try await manager.runUntilIdle()
  }
  let idle = await eventually(timeout: timeout) { done.withLock { $0 } }
  if !idle { work.cancel() }
  try await work.value
  return idle
}

/// Expects `call` to be refused with `invalidTransition(action, from: state)`.
func expectInvalidTransition(
  _ action: OfflineAction, from state: OfflineState,
  sourceLocation: SourceLocation = #_sourceLocation,
  _ call: () async throws(OfflineError) -> Void
) async {
  do {
    try await call()
    Issue.record("\(action) in \(state) was accepted", sourceLocation: sourceLocation)
  } catch {
    guard case .invalidTransition(let refused, let from) = error.kind else {
      Issue.record("\(action) in \(state) threw \(error)", sourceLocation: sourceLocation)
      return
    }
    #expect(refused == action, sourceLocation: sourceLocation)
    #expect(from == state, sourceLocation: sourceLocation)
  }
}
