import Foundation
import OfflineKit
import OfflineLocks

/// `offline run` on a terminal: one line per running content (its name, a bar, bytes, speed
/// and time left, or why it waits), redrawn in place with ANSI cursor moves at most four
/// times a second; a content that finished, failed, was suspended or canceled prints a line
/// that scrolls above them.
///
/// Events are recorded from the printer task; ``paint()`` draws from its own task. Both only
/// touch the state under its lock; writes to the terminal happen one frame at a time.
final class RunView: Sendable {
  private struct Row: Sendable {
    var name: String
    var progress: OfflineProgress?
    var reason: String?
  }

  private struct State: Sendable {
    var order: [String] = []
    var rows: [String: Row] = [:]
    var scrolled: [String] = []
    var drawnRows = 0
    var changed = false
  }

  private let console: Console
  private let state = Locked(State())

  /// A view writing to `console`'s standard error.
  init(console: Console) { self.console = console }

  /// Whether `id` has a line (or had one: an ended content is not shown again).
  func shows(_ id: String) -> Bool { state.withLock { $0.rows[id] != nil } }

  /// Gives `id` a line named `name`, waiting to start.
  func add(_ id: String, name: String) {
    state.withLock { state in
      guard state.rows[id] == nil else { return }
      state.order.append(id)
      state.rows[id] = Row(name: name)
      state.changed = true
    }
  }

  /// New progress for `id`: it is moving, so no longer waiting.
  func update(_ id: String, progress: OfflineProgress) {
    state.withLock { state in
      state.rows[id]?.progress = progress
      state.rows[id]?.reason = nil
      state.changed = true
    }
  }

  /// `id` waits for `reason` (nil: it no longer waits).
  func update(_ id: String, waitingFor reason: String?) {
    state.withLock { state in
      state.rows[id]?.reason = reason
      state.changed = true
    }
  }

  /// `id` is done with (finished, failed, suspended, canceled): `line` goes above the view.
  func end(_ id: String, line: String) {
    state.withLock { state in
      state.order.removeAll { $0 == id }
      state.rows[id] = nil
      state.scrolled.append(line)
      state.changed = true
    }
  }

  /// Draws every quarter of a second while something changed, until the task is cancelled.
  func paint() async {
    while !Task.isCancelled {
      draw()
      try? await Task.sleep(for: .milliseconds(250))
    }
  }

  /// Draws the lines that scrolled since the last frame and the running contents' lines.
  func draw() {
    let width = console.columns
    let frame = state.withLock { state -> String? in
      guard state.changed else { return nil }
      defer {
        state.scrolled = []
        state.drawnRows = state.order.count
        state.changed = false
      }
      return Self.frame(state, width: width)
    }
    if let frame { console.errRaw(frame) }
  }

  /// Ends the view: the last lines that scrolled, and the running lines erased.
  func close() {
    state.withLock { state in
      state.order = []
      state.rows = [:]
      state.changed = true
    }
    draw()
  }

  private static func frame(_ state: State, width: Int) -> String {
    // Up to the first running line, then erase to the end of the screen.
    var text = (state.drawnRows > 0 ? "\u{1B}[\(state.drawnRows)A" : "") + "\r\u{1B}[J"
    for line in state.scrolled { text += line + "\n" }
    for id in state.order {
      if let row = state.rows[id] { text += line(row, width: width) + "\n" }
    }
    return text
  }

  /// `Big Movie      [#####-----]  4.0 MiB / 8.0 MiB   50%  1.0 MiB/s  0:00:04 left`, in
  /// fewer columns than `width`, so no line wraps and the cursor moves stay right.
  private static func line(_ row: Row, width: Int) -> String {
    let nameWidth = min(24, max(8, width / 4))
    var name = row.name
    if name.count > nameWidth { name = String(name.prefix(nameWidth - 1)) + "~" }
    name = name.padding(toLength: nameWidth, withPad: " ", startingAt: 0)
    let rest = width - nameWidth - 1
    if let reason = row.reason { return String((name + " waiting (\(reason))").prefix(width - 1)) }
    guard let progress = row.progress else { return String((name + " starting").prefix(width - 1)) }
    var stats = ProgressLine.render(progress)
    if progress.totalIsEstimate { stats = stats.replacingOccurrences(of: " / ", with: " / ~") }
    return name + " "
      + ProgressLine.withBar(stats, fraction: progress.fractionCompleted, width: rest)
  }
}
