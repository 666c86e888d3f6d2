import OfflineLocks

/// A point where a scripted response waits until the test lets it go: before its head, or at
/// an offset of its body.
///
/// The transport holds every request that reaches a closed gate; ``reached(_:within:)`` lets
/// the test await the moment they are there ("the download is under way and has this many
/// bytes"), and ``open()`` releases them all at once (and every later arrival passes). A held
/// request also ends when its task is cancelled (the transport throws `.canceled`, as curl
/// does) or after the transport's hold limit (it throws `.stalled`), so a test that forgets to
/// open a gate fails instead of hanging. Nothing here sleeps to make time pass: the only
/// timers are those bounds.
///
/// ```swift
/// let gate = ScriptedGate()
/// transport.enqueue(url, .ok(body).held(by: gate, atOffset: 64 << 10))
/// let running = Task { try await transfer.run() }
/// #expect(await gate.reached())   // 64 KiB are in the part file
/// running.cancel()
/// ```
public final class ScriptedGate: Sendable {
  /// How a held request left the gate.
  enum Passage: Sendable {
    case opened, canceled, timedOut
  }

  private struct State {
    var isOpen = false
    var arrivals = 0
    var nextID = 0
    var held: [Int: CheckedContinuation<Passage, Never>] = [:]
    /// Requests whose task was cancelled or timed out before they were stored.
    var settledEarly: [Int: Passage] = [:]
    var watchers: [Int: (count: Int, continuation: CheckedContinuation<Bool, Never>)] = [:]
    var watchersSettledEarly: [Int: Bool] = [:]
  }

  private let state = Locked(State())

  /// Creates a closed gate.
  public init() {}

  /// How many requests have reached the gate so far, held or not.
  public var arrivals: Int { state.withLock { $0.arrivals } }

  /// How many requests are waiting at the gate now.
  public var holding: Int { state.withLock { $0.held.count } }

  /// Whether ``open()`` was called.
  public var isOpen: Bool { state.withLock { $0.isOpen } }

  /// Lets every held request go on, and every later one pass without waiting.
  public func open() {
    let released: [CheckedContinuation<Passage, Never>] = state.withLock { state in
      state.isOpen = true
      let held = Array(state.held.values)
      state.held.removeAll()
      return held
    }
    for continuation in released { continuation.resume(returning: .opened) }
  }

  /// Waits until `count` requests in all have reached the gate, at most `timeout`; returns
  /// whether they did. Returns at once when they already have.
  public func reached(_ count: Int = 1, within timeout: Duration = .seconds(15)) async -> Bool {
    let id: Int = state.withLock { state in
      state.nextID += 1
      return state.nextID
    }
    return await withTaskCancellationHandler {
      await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
        let now: Bool? = state.withLock { state in
          if let early = state.watchersSettledEarly.removeValue(forKey: id) { return early }
          if state.arrivals >= count { return true }
          state.watchers[id] = (count, continuation)
          return nil
        }
        if let now { return continuation.resume(returning: now) }
        Task { [weak self] in
          try? await Task.sleep(for: timeout)
          self?.settleWatcher(id, false)
        }
      }
    } onCancel: {
      settleWatcher(id, false)
    }
  }

  /// Called by the transport: counts the arrival and waits until the gate opens, the task
  /// is cancelled, or `limit` passes.
  func pass(limit: Duration) async -> Passage {
    let (id, satisfied): (Int, [CheckedContinuation<Bool, Never>]) = state.withLock { state in
      state.nextID += 1
      state.arrivals += 1
      let arrivals = state.arrivals
      let ready = state.watchers.filter { $0.value.count <= arrivals }
      for key in ready.keys { state.watchers[key] = nil }
      return (state.nextID, ready.values.map { $0.continuation })
    }
    for watcher in satisfied { watcher.resume(returning: true) }
    return await withTaskCancellationHandler {
      await withCheckedContinuation { (continuation: CheckedContinuation<Passage, Never>) in
        let now: Passage? = state.withLock { state in
          if let early = state.settledEarly.removeValue(forKey: id) { return early }
          if state.isOpen { return .opened }
          state.held[id] = continuation
          return nil
        }
        if let now { return continuation.resume(returning: now) }
        Task { [weak self] in
          try? await Task.sleep(for: limit)
          self?.settle(id, .timedOut)
        }
      }
    } onCancel: {
      settle(id, .canceled)
    }
  }

  private func settle(_ id: Int, _ passage: Passage) {
    let continuation: CheckedContinuation<Passage, Never>? = state.withLock { state in
      guard let held = state.held.removeValue(forKey: id) else {
        if !state.isOpen { state.settledEarly[id] = passage }
        return nil
      }
      return held
    }
    continuation?.resume(returning: passage)
  }

  private func settleWatcher(_ id: Int, _ result: Bool) {
    let continuation: CheckedContinuation<Bool, Never>? = state.withLock { state in
      guard let watcher = state.watchers.removeValue(forKey: id) else {
        state.watchersSettledEarly[id] = result
        return nil
      }
      return watcher.continuation
    }
    continuation?.resume(returning: result)
  }
}
