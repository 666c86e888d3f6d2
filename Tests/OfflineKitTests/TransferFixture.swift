import Foundation
import OfflineHTTP
import OfflineStore
import Synchronization
import TestSupport

@testable import OfflineKit

/// A store, a transport and an output folder for one test, plus an event recorder.
struct TransferFixture {
  let folder: TemporaryDirectory
  let index: OfflineIndex
  let transport: CurlTransport

  init(stallTimeout: Duration = .seconds(10)) throws {
    folder = try TemporaryDirectory()
    index = try OfflineIndex(directory: folder.url.appending(path: "store"))
    transport = CurlTransport(configuration: .init(stallTimeout: stallTimeout))
  }

  func destination(_ name: String = "file.bin") -> String {
    folder.url.appending(path: "out").appending(path: name).path
  }

  /// Fast retries so tests of transient faults do not wait.
  static let quickRetries = Transfer.Options(
    initialRetryDelay: .milliseconds(20), maximumRetryDelay: .seconds(2))

  func transfer(
    _ url: URL, to destination: String? = nil, options: Transfer.Options = quickRetries
  ) -> Transfer {
    Transfer(
      url: url, destination: destination ?? self.destination(), journal: index.transfers,
      transport: transport, options: options)
  }
}

/// Collects a transfer's events for assertions.
final class EventLog: Sendable {
  private let storage = Mutex<[Transfer.Event]>([])

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
  static func quick(_ change: (inout Transfer.Options) -> Void) -> Transfer.Options {
    var options = TransferFixture.quickRetries
    change(&options)
    return options
  }
}

typealias Options = Transfer.Options

func fileData(_ path: String) -> Data? {
  FileManager.default.contents(atPath: path)
}
