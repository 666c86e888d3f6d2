import Foundation
import OfflineKit
import OfflineService
import TestSupport

/// A store, its manager working the queue, an `OfflineService` on a free loopback port, and
/// nginx as the origin, for one test. Everything goes away with the fixture.
final class ServiceFixture: Sendable {
  let origin: TemporaryDirectory
  let store: TemporaryDirectory
  let nginx: NginxServer
  let manager: OfflineManager
  let service: OfflineService

  init(
    configuration: OfflineService.Configuration = .init(),
    nginx options: NginxServer.Options = .init()
  )
    async throws
  {
    origin = try TemporaryDirectory(prefix: "offlinekit-serve-origin")
    store = try TemporaryDirectory(prefix: "offlinekit-serve-store")
    nginx = try NginxServer(root: origin.url, options: options)
    try nginx.start()
    manager = try OfflineManager(
      directory: store.url,
      configuration: .init(pollInterval: .milliseconds(50), minimumFreeSpace: 0))
    try await manager.start()
    var settings = configuration
    settings.address = ListenAddress(host: "127.0.0.1", port: 0)
    service = try OfflineService(manager: manager, configuration: settings)
  }

  deinit {
    service.stop()
    nginx.stop()
  }

  /// Stops the service and the queue (call at the end of a test that started downloads).
  func close() async {
    service.stop()
    await manager.stop(suspendingRunning: true)
  }

  /// The service's port.
  var port: Int { service.configuration.address.port }

  /// `http://127.0.0.1:PORT` + `path`.
  func url(_ path: String) -> String { "http://127.0.0.1:\(port)\(path)" }

  /// Writes `count` test bytes at `name` on the origin and downloads it through the queue;
  /// returns the content's id once it is downloaded (at most `timeout` seconds).
  func download(_ name: String, count: Int, timeout: Double = 30) async throws -> String {
    try TestData.writeFile(at: origin.file(name), count: count)
    return try await download(url: nginx.url("/" + name), timeout: timeout)
  }

  /// Downloads `url` through the queue and returns the id once it is downloaded.
  func download(url: URL, timeout: Double = 60) async throws -> String {
    let content = try await manager.add([OfflineSource(url: url)]).first!
    try await waitFor(content.id, .downloaded, timeout: timeout)
    return content.id
  }

  /// Waits (at most `timeout` seconds) until content `id` is in `state`.
  func waitFor(_ id: String, _ state: OfflineState, timeout: Double = 30) async throws {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
      let snapshot = try await manager.snapshot(id: id)
      if snapshot.state == state { return }
      try await Task.sleep(for: .milliseconds(50))
    }
    let last = try await manager.snapshot(id: id)
    throw FixtureError.timedOut(
      "\(id) is \(last.state) (\(last.lastError?.description ?? "no error")), not \(state)")
  }
}

/// A fixture's wait that ran out.
enum FixtureError: Error {
  case timedOut(String)
}
