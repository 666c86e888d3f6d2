import Foundation
import OfflineHTTP
import OfflineKit
import OfflineLocks

/// `offline run`: work the queue until nothing is left to do.
struct RunCommand: Command {
  static let parallel: Option<Int> = .value(
    "--parallel", valueName: "n", help: "Downloads at once.", default: "3",
    parser: .integer(atLeast: 1))
  static let minimumFreeSpace: Option<ByteCount> = .value(
    "--min-free", valueName: "size",
    help: "Free space to keep on the disk, such as 0, 512K, 100M or 1G. A download waits until"
      + " its bytes fit with this much left; one that cannot fit even on the empty disk is"
      + " suspended with the bytes it needs.",
    default: "64M", parser: .byteCount)
  static let limitRate: Option<ByteRate?> = .value(
    "--limit-rate", valueName: "rate",
    help: "Receive at most this many bytes per second, all running downloads together (500k,"
      + " 2M, 1G: powers of 1024, as curl).",
    parser: .byteRate)
  static let quiet: Option<Bool> = .flag("-q", "--quiet", help: "Print nothing but errors.")
  static let maxConnections: Option<Int?> = .value(
    "--max-connections", valueName: "n",
    help: "At most n connections to the origin for each stream's segments over HTTP/1.1, over"
      + " what it was added with (default: up to 16, added while they still raise the speed).",
    parser: .integer(atLeast: 1))

  static let configuration = CommandConfiguration(
    name: "run", abstract: "Download the queued contents until nothing is left to do.",
    discussion: """
      Contents waiting for the network, for disk space or for a retry count as left to do.
      'pause', 'resume', 'cancel', 'add' and 'rm' given in another terminal take effect
      within a second. SIGINT (Ctrl-C) or SIGTERM suspends what is running, keeping its
      partial data, and exits 130 (143); 'offline resume ID' queues it again.
      """,
    options: [parallel, minimumFreeSpace, limitRate, maxConnections, quiet], command: Self.self)

  let parallel: Int
  let minimumFreeSpace: Int64
  let rateLimit: ByteRate?
  let maxConnections: Int?
  let quiet: Bool

  init(_ arguments: ParsedArguments) {
    parallel = arguments[Self.parallel]
    minimumFreeSpace = arguments[Self.minimumFreeSpace].bytes
    rateLimit = arguments[Self.limitRate]
    maxConnections = arguments[Self.maxConnections]
    quiet = arguments[Self.quiet]
  }

  func run(_ context: CommandContext) async -> Int32 {
    let command = self
    let console = context.console
    do throws(OfflineError) {
      let manager = try ManagerAccess.open(
        context, parallel: command.parallel, minimumFreeSpace: command.minimumFreeSpace,
        rateLimit: command.rateLimit, maxStreamConnections: command.maxConnections)
      let earlier = try await Self.failures(of: manager)
      let printed = Locked<Set<String>>([])
      // On a terminal, a live view; otherwise (or asked to) plain lines, as before.
      let view = !command.quiet && console.stderrIsTerminal ? RunView(console: console) : nil
      let printer =
        command.quiet
        ? nil
        : Task {
          if let view {
            await Self.show(manager, in: view, printed: printed)
          } else {
            await Self.printEvents(of: manager, console, printed: printed)
          }
        }
      let painter = view.map { view in Task { await view.paint() } }
      defer {
        printer?.cancel()
        painter?.cancel()
      }
      try await manager.runUntilIdle()
      let interrupted = Task.isCancelled
      await manager.stop(suspendingRunning: interrupted)
      if let view {
        // The last events in, then the view closed, before anything else is printed.
        try? await Task.sleep(for: .milliseconds(100))
        printer?.cancel()
        painter?.cancel()
        _ = await (printer?.value, painter?.value)
        await Self.endRows(of: manager, in: view)
        view.close()
      }
      if interrupted { return ExitCode.failure }
      let failed = try await Self.failures(of: manager)
      if !command.quiet {
        // A content can fail before the printer has subscribed, or just before the run
        // ends: say what it did not.
        let shown = printed.withLock { $0 }
        for (id, error) in failed.sorted(by: { $0.key < $1.key })
        where earlier[id] != error && !shown.contains(id) {
          console.err("\(id): \(error)")
        }
      }
      return failed.isEmpty ? ExitCode.success : ExitCode.failure
    } catch {
      return ManagerAccess.fail(error, console)
    }
  }

  /// The contents that ended with an error, with it: suspended (data kept), or not
  /// downloaded (a failure that threw the bytes away, such as a checksum mismatch).
  private static func failures(of manager: OfflineManager) async throws(OfflineError)
    -> [String: String]
  {
    var result: [String: String] = [:]
    for snapshot in try await manager.snapshots(in: [.suspended, .notDownloaded]) {
      if let error = snapshot.lastError { result[snapshot.id] = error.description }
    }
    return result
  }

  /// Prints what happens to each content: a wait once per reason (the runner looks again
  /// and again while a content waits, but only a new reason is news).
  private static func printEvents(
    of manager: OfflineManager, _ console: Console, printed: Locked<Set<String>>
  ) async {
    var lastWait: [String: String] = [:]
    for await (id, event) in manager.allEvents() {
      switch event {
      case .changed(let snapshot):
        guard let reason = shownWait(of: snapshot) else {
          lastWait[id] = nil  // moving, or a new state: the next wait is news again
          if snapshot.state == .suspended { console.err("\(id): suspended") }
          break
        }
        guard lastWait[id] != reason.name else { break }
        lastWait[id] = reason.name
        console.err("\(id): waiting (\(reason.name))")
      case .finished(.success(let url)):
        console.err("\(id): finished \(url.path)")
      case .finished(.failure(let error)) where error.code == .canceled:
        console.err("\(id): canceled")
      case .finished(.failure(let error)):
        printed.withLock { _ = $0.insert(id) }
        console.err("\(id): \(error)")
      case .progress, .restarted, .keysRenewed:
        break
      }
    }
  }

  /// The wait a line shows for `snapshot`: a download held up by the network, the disk or
  /// a retry (queued and starting are the run's ordinary course, not waits).
  private static func shownWait(of snapshot: OfflineContent.Snapshot) -> WaitReason? {
    guard snapshot.state == .downloading, let reason = snapshot.waitReason else { return nil }
    return reason == .queued || reason == .starting ? nil : reason
  }

  /// Feeds the live view: a line per content that runs or waits, updated by its progress and
  /// wait reasons, ended (and scrolled above) when it finishes, fails or stops.
  private static func show(
    _ manager: OfflineManager, in view: RunView, printed: Locked<Set<String>>
  ) async {
    var ended: Set<String> = []
    for await (id, event) in manager.allEvents() {
      guard !ended.contains(id) else { continue }
      if !view.shows(id) {
        // A content only queued has no line yet: it gets one when it moves or waits.
        if case .changed(let snapshot) = event, snapshot.state == .downloading,
          shownWait(of: snapshot) == nil
        {
          continue
        }
        guard let snapshot = try? await manager.snapshot(id: id) else { continue }
        let name = snapshot.title ?? snapshot.fileURL.lastPathComponent
        view.add(id, name: TerminalText.escaped(name))
      }
      switch event {
      case .progress(let progress): view.update(id, progress: progress)
      case .changed(let snapshot) where snapshot.state == .downloading:
        view.update(id, waitingFor: shownWait(of: snapshot)?.name)
      case .changed(let snapshot) where snapshot.state == .suspended:
        // A failure suspends with its error: the line says it (its `finished` follows).
        ended.insert(id)
        guard let error = snapshot.lastError else {
          view.end(id, line: "\(id): suspended")
          break
        }
        printed.withLock { _ = $0.insert(id) }
        view.end(id, line: "\(id): " + TerminalText.message("\(error)"))
      case .finished(.success(let url)):
        ended.insert(id)
        view.end(id, line: "\(id): finished \(url.path)")
      case .finished(.failure(let error)) where error.code == .canceled:
        ended.insert(id)
        view.end(id, line: "\(id): canceled")
      case .finished(.failure(let error)):
        printed.withLock { _ = $0.insert(id) }
        ended.insert(id)
        view.end(id, line: "\(id): " + TerminalText.message("\(error)"))
      default: break
      }
    }
  }

  /// The contents still in the view when the run ends: a finished one's line (its event may
  /// not have arrived), the others dropped (a failure is printed after the view).
  private static func endRows(of manager: OfflineManager, in view: RunView) async {
    guard let snapshots = try? await manager.snapshots() else { return }
    for snapshot in snapshots where view.shows(snapshot.id) && snapshot.state == .downloaded {
      view.end(snapshot.id, line: "\(snapshot.id): finished \(snapshot.fileURL.path)")
    }
  }
}
