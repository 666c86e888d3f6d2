import Foundation
import TestSupport
import TestTiming
import Testing

@testable import OfflineKit

/// Events for slow consumers (issue 37, item 4): state changes and results are never
/// dropped, only progress is coalesced. Before, each subscriber's `AsyncStream` kept the
/// newest 256 events (1024 for every content's) and dropped the rest, state changes
/// included.
@Suite(.timed) struct EventQueueTests {
  static func progress(_ bytes: Int64) -> OfflineContent.Event {
    .progress(OfflineProgress(bytes: bytes, total: 1000))
  }

  /// A change of a content to `state`.
  static func changed(_ state: OfflineState, id: String = "a") -> OfflineContent.Event {
    .changed(snapshot(state, id: id))
  }

  static func snapshot(_ state: OfflineState, id: String = "a") -> OfflineContent.Snapshot {
    let url = URL(fileURLWithPath: "/store/\(id)")
    return OfflineContent.Snapshot(
      id: id, url: url, title: nil, metadata: nil, state: state, bytes: 0, total: nil,
      totalIsEstimate: false, waitReason: nil, lastError: nil, fileURL: url, priority: 0)
  }

  static let finished = OfflineContent.Event.finished(.success(URL(fileURLWithPath: "/a")))

  /// A short name per event: the state, `p<bytes>` for progress, the case otherwise.
  static func name(_ event: OfflineContent.Event) -> String {
    switch event {
    case .changed(let snapshot): snapshot.state.rawValue
    case .progress(let progress): "p\(progress.bytes)"
    case .finished: "finished"
    default: "other"
    }
  }

  /// Pins the drops: a consumer that reads nothing while a 200-item queue runs (as one
  /// that sleeps 2 s per event would) then reads every state change and result of every
  /// content, in order, and the newest progress of each.
  @Test func aConsumerThatFallsBehindSeesEveryStateChangeOfA200ItemQueue() async {
    let hub = EventHub()
    let all = hub.subscribeAll()
    for number in 0..<200 {
      let id = "c\(number)"
      hub.send(Self.changed(.downloading, id: id), to: id)
      for step in 1...50 { hub.send(Self.progress(Int64(step * 20)), to: id) }
      hub.send(Self.changed(.downloaded, id: id), to: id)
      hub.send(Self.finished, to: id)
    }
    hub.close()

    var seen: [String: [String]] = [:]
    for await (id, event) in all { seen[id, default: []].append(Self.name(event)) }
    #expect(seen.count == 200)
    for number in 0..<200 {
      #expect(
        seen["c\(number)"] == ["downloading", "p1000", "downloaded", "finished"],
        "c\(number): \(seen["c\(number)"] ?? [])")
    }
  }

  /// On one content's stream, progress waiting behind a state change is not merged across
  /// it: the order of what happened is kept.
  @Test func progressIsCoalescedOnlyWithTheContentsLatestPendingEvent() async {
    let hub = EventHub()
    let events = hub.subscribe(id: "a") { .success(Self.snapshot(.downloading)) }
    hub.send(Self.progress(10), to: "a")
    hub.send(Self.progress(20), to: "a")
    hub.send(Self.changed(.suspended), to: "a")
    hub.send(Self.changed(.downloading), to: "a")
    hub.send(Self.progress(30), to: "a")
    hub.send(Self.progress(40), to: "a")
    hub.close()

    var names: [String] = []
    for await event in events { names.append(Self.name(event)) }
    #expect(names == ["downloading", "p20", "suspended", "downloading", "p40"])
  }

  /// A consumer waiting for the next event sees it at once; a cancelled one ends.
  @Test func aWaitingConsumerGetsTheNextEventAndACancelledOneEnds() async {
    let hub = EventHub()
    let events = hub.subscribe(id: "a") { .success(Self.snapshot(.downloading)) }
    let reader = Task {
      var names: [String] = []
      for await event in events {
        names.append(Self.name(event))
        if names.count == 2 { return names }
      }
      return names
    }
    hub.send(Self.finished, to: "a")
    #expect(await reader.value == ["downloading", "finished"])

    let waiting = Task {
      var count = 0
      for await _ in hub.subscribe(id: "b", current: { .success(Self.snapshot(.downloading)) }) {
        count += 1
      }
      return count
    }
    try? await Task.sleep(for: .milliseconds(50))
    waiting.cancel()
    #expect(await waiting.value == 1, "the first state, then the cancel ends it")
  }

  /// After a restart, bytes start again from zero: progress is clamped from there, not
  /// held at the bytes of the attempt before.
  @Test func progressAfterARestartStartsAgainFromItsBytes() async {
    let hub = EventHub()
    let events = hub.subscribe(id: "a") { .success(Self.snapshot(.downloading)) }
    hub.sendProgress(OfflineProgress(bytes: 600, total: 1000), to: "a")
    hub.sendProgress(OfflineProgress(bytes: 500, total: 1000), to: "a")  // never backwards
    hub.send(.restarted(.rangesIgnored), to: "a")
    hub.sendProgress(OfflineProgress(bytes: 100, total: 1000), to: "a")
    hub.close()

    var names: [String] = []
    for await event in events { names.append(Self.name(event)) }
    #expect(names == ["downloading", "p600", "other", "p100"])
  }
}
