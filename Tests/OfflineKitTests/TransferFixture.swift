import Foundation
import OfflineHTTP
import OfflineLocks
import OfflineStore
import TestSupport

@testable import OfflineKit

/// A store, a transport and an output folder for one test, plus an event recorder.
struct TransferFixture {
  let folder: TemporaryDirectory
  let index: OfflineIndex
  let transport: any HTTPTransporting

  /// A fixture whose transfers go through `transport` (a `ScriptedTransport`, for tests of
  /// decisions), else through curl with `stallTimeout`.
  init(stallTimeout: Duration = .seconds(10), transport: (any HTTPTransporting)? = nil) throws {
    folder = try TemporaryDirectory()
    index = try OfflineIndex(directory: folder.url.appending(path: "store"))
    self.transport = transport ?? CurlTransport(configuration: .init(stallTimeout: stallTimeout))
  }

  func destination(_ name: String = "file.bin") -> String {
    folder.url.appending(path: "out").appending(path: name).path
  }

  /// Leaves `bytes` in the part file as an earlier run would, with the journal entry of
  /// that run (written in this boot) unless `journalETag` is nil.
  func seedPart(_ bytes: Data, url: URL, journalETag: String? = "\"v1\"") throws {
    let destination = destination()
    try FileManager.default.createDirectory(
      atPath: (destination as NSString).deletingLastPathComponent,
      withIntermediateDirectories: true)
    try bytes.write(to: URL(fileURLWithPath: destination + ".part"))
    guard let journalETag else { return }
    try index.transfers.save(
      TransferRecord(
        destination: destination, url: url.absoluteString, bootID: BootIdentity.current,
        etag: journalETag))
  }

  /// Starts a transfer of `url` and cancels it as soon as its part holds bytes (looked at
  /// every 10 ms, for at most 20 s): how it ended (nil when it finished first).
  ///
  /// Pins a flake: the transfer was looked at only after a fixed 400 ms, and on a loaded
  /// machine (the whole suite on two cores) that sleep outlasted an 8 MiB download at
  /// 8 MB/s, so no part was ever seen and the test waited 20 s for nothing.
  func cancelMidway(_ url: URL) async throws -> Transfer.Error? {
    let running = Task { try await transfer(url).run() }
    let part = destination() + ".part"
    for _ in 0..<2000 where (FileSteps.regularFileSize(part) ?? 0) == 0 {
      try await Task.sleep(for: .milliseconds(10))
    }
    running.cancel()
    do {
      _ = try await running.value
      return nil
    } catch let error as Transfer.Error {
      return error
    }
  }

  /// Fast retries so tests of transient faults do not wait.
  static let quickRetries = Transfer.Configuration(
    retry: RetryPolicy(initialDelay: .milliseconds(20), maximumDelay: .seconds(2)))

  func transfer(
    _ url: URL, to destination: String? = nil, configuration: Transfer.Configuration = quickRetries
  ) -> Transfer {
    Transfer(
      url: url, destination: destination ?? self.destination(), journal: index.transfers,
      transport: transport, configuration: configuration)
  }

  /// Serves `behaviour` at `/f` on a new fault server and downloads it with `configuration`:
  /// the server (for its request log), how the transfer ended and the events it sent. The
  /// file lives in this fixture's folder: keep the fixture while the test reads it.
  func download(
    _ behaviour: FaultServer.Behaviour, configuration: Transfer.Configuration = quickRetries
  ) async throws -> (server: FaultServer, outcome: Transfer.Outcome, log: EventLog) {
    let server = try FaultServer()
    server.setRoute("/f", behaviour)
    let log = EventLog()
    let outcome = try await transfer(server.url("/f"), configuration: configuration).run(
      onEvent: log.record)
    return (server, outcome, log)
  }
}

/// Collects a transfer's events for assertions.
final class EventLog: Sendable {
  private let storage = Locked<[Transfer.Event]>([])

  var events: [Transfer.Event] { storage.withLock { $0 } }

  func record(_ event: Transfer.Event) {
    storage.withLock { $0.append(event) }
  }

  var restartReasons: [Transfer.RestartReason] {
    events.compactMap {
      if case .restarted(let reason) = $0 { return reason }
      return nil
    }
  }

  var requestedOffsets: [Int64] {
    events.compactMap {
      if case .requesting(let offset) = $0 { return offset }
      return nil
    }
  }

  var retries: Int {
    events.filter {
      if case .retrying = $0 { return true }
      return false
    }.count
  }

  var progressBytes: [Int64] {
    events.compactMap {
      if case .progress(let progress) = $0 { return progress.bytes }
      return nil
    }
  }
}

extension Options {
  /// Options with the fast retries of tests and a change.
  static func quick(_ change: (inout Transfer.Configuration) -> Void) -> Transfer.Configuration {
    var options = TransferFixture.quickRetries
    change(&options)
    return options
  }
}

typealias Options = Transfer.Configuration

func fileData(_ path: String) -> Data? {
  FileManager.default.contents(atPath: path)
}
