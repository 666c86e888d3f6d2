import Foundation
import OfflineStore
import TestSupport
import TestTiming
import Testing

@testable import OfflineKit

/// The standalone download (issue 37, items 1 and 2): `Transfer(url:destination:store:)`
/// opens its own journal, and `events()` gives what a queued content's events give, as the
/// same async sequence. Before, it took an `OfflineIndex`, a `CurlTransport` and a callback
/// of its own event type.
@Suite(.timed) struct TransferEventsTests {
  static func events(of transfer: Transfer) async -> [OfflineContent.Event] {
    var events: [OfflineContent.Event] = []
    for await event in transfer.events() { events.append(event) }
    return events
  }

  @Test func aStandaloneDownloadEndsWithTheVerifiedFileAsAQueuedContentDoes() async throws {
    let origin = ScriptedOrigin(files: ["file.bin": 1 << 20])
    let body = try #require(origin.body("file.bin"))
    let folder = try TemporaryDirectory()
    let destination = folder.url.appending(path: "file.bin").path
    let hasher = SHA256()
    body.withUnsafeBytes { hasher.update($0) }
    let transfer = try Transfer(
      url: origin.url("file.bin"), destination: destination,
      store: folder.url.appending(path: "store"), transport: origin.transport,
      configuration: .init(expectedSHA256: hasher.finalizeHex()))

    let events = await Self.events(of: transfer)

    #expect(events.map(\.name).last == "finished", "\(events.map(\.name))")
    #expect(events.map(\.name).allSatisfy { $0 == "progress" || $0 == "finished" })
    guard case .finished(.success(let file))? = events.last else {
      Issue.record("\(events)")
      return
    }
    #expect(file.path == destination)
    #expect(FileManager.default.contents(atPath: destination) == body)
    let journal = try OfflineIndex(directory: folder.url.appending(path: "store")).transfers
    #expect(try journal.record(forDestination: destination)?.phase == .complete)
  }

  @Test func aFailedStandaloneDownloadEndsWithItsError() async throws {
    let origin = ScriptedOrigin(files: [:])  // a 404 for anything
    let folder = try TemporaryDirectory()
    let transfer = try Transfer(
      url: origin.url("missing.bin"), destination: folder.url.appending(path: "m.bin").path,
      store: folder.url, transport: origin.transport)

    let events = await Self.events(of: transfer)

    #expect(events.dropLast().allSatisfy { $0.name == "progress" })
    guard case .finished(.failure(let error))? = events.last else {
      Issue.record("\(events)")
      return
    }
    #expect(error.code == .httpStatus && error.httpStatus == 404)
  }

  /// Breaking out of the loop cancels the run and keeps what came for the next one.
  @Test func leavingTheLoopCancelsTheRunAndKeepsThePart() async throws {
    let origin = ScriptedOrigin(files: ["file.bin": 1 << 20])
    let held = origin.holding("file.bin")
    let folder = try TemporaryDirectory()
    let destination = folder.url.appending(path: "file.bin").path
    let transfer = try Transfer(
      url: origin.url("file.bin"), destination: destination, store: folder.url,
      transport: origin.transport)

    let opening = Task { await held.reached() }  // lets bytes come up to the gate
    for await event in transfer.events() {
      if (event.progressBytes ?? 0) > 0 { break }
    }
    opening.cancel()  // the run may have stopped short of the gate
    held.open()

    // The journal row is active from the start, so the wait is for the part's bytes too: the
    // cancelled run writes what it holds as it ends, which a loaded machine may do after the
    // row is first seen (a CI run found the part still empty at that moment).
    #expect(
      try await eventually {
        let journal = try OfflineIndex(directory: folder.url).transfers
        let part = try? FileManager.default.attributesOfItem(atPath: destination + ".part")
        return try journal.record(forDestination: destination)?.phase == .active
          && (part?[.size] as? Int ?? 0) > 0
      })
    #expect(!FileManager.default.fileExists(atPath: destination))
  }
}
