import Foundation
import OfflineKit
import Synchronization
import TestSupport
import TestTiming
import Testing

@testable import OfflineService

/// A new `GET /api/events` subscriber misses nothing (issue 16, item 3).
@Suite(.timed) struct EventSubscribeTests {
  // Pins: subscribe() read the snapshots and only then registered the subscriber, so an
  // event sent in between (a state change while the opening was built) never reached it.
  @Test func anEventSentWhileTheOpeningIsBuiltReachesTheNewSubscriber() async throws {
    let store = try TemporaryDirectory(prefix: "offlinekit-subscribe")
    let manager = try OfflineManager(directory: store.url)
    let broadcaster = Mutex<EventBroadcaster?>(nil)
    let late = EventText.plain("forgotten", "sent-between")
    let events = EventBroadcaster(manager: manager) {
      broadcaster.withLock { $0 }?.send(late)
    }
    broadcaster.withLock { $0 = events }
    let stream = await events.subscribe()
    events.send(EventText.plain("forgotten", "sent-after"))

    let text = Self.pending(in: stream)
    #expect(text.hasPrefix("retry: 2000\n\n"), "the opening comes first: \(text)")
    let between = try #require(text.range(of: late), "the event sent in between: \(text)")
    let after = try #require(text.range(of: "sent-after"))
    #expect(between.upperBound <= after.lowerBound, "in the order they were sent")
    #expect(text.components(separatedBy: late).count == 2, "once: \(text)")
    events.finish()
    await manager.close()
  }

  /// Everything the stream holds now, as text.
  static func pending(in stream: EventStream) -> String {
    var data = Data()
    var buffer = [UInt8](repeating: 0, count: 64 << 10)
    while true {
      let read = buffer.withUnsafeMutableBytes { stream.read(into: $0) }
      guard case .bytes(let count) = read else { break }
      data.append(contentsOf: buffer[..<count])
    }
    return String(decoding: data, as: UTF8.self)
  }
}
