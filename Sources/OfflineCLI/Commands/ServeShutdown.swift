import Foundation
import OfflineKit
import OfflineLocks
import OfflineService
import OfflineSignals

/// How `offline serve` ends on SIGINT or SIGTERM: in order, within ``deadline`` of the
/// signal.
///
/// 1. The manager stops starting downloads (``OfflineManager/stopLaunching()``, which does
///    not wait for the manager however busy it is).
/// 2. The service stops: no new request, event streams ended, requests still being worked
///    out answered 503, connections closed, libmicrohttpd's threads joined.
/// 3. The manager suspends what runs (partial data and journal kept).
/// 4. The handlers still waiting for the manager finish (their answers are let go).
///
/// Then the command returns and the process exits with nothing of ours running. Exiting
/// while libmicrohttpd's threads and the manager's transfers still ran (the service had
/// given up stopping after 10 s, and the manager went on starting transfers while it
/// stopped the others) killed the process with SIGSEGV or SIGBUS now and then, as `exit`
/// tore down what they used. Should the steps not be done by the deadline, the process ends
/// with `_exit` and the signal's code: no teardown runs under a thread that still works,
/// and the journal is as safe as after a power cut; what ran stays `downloading`.
enum ServeShutdown {
  /// From the signal to the process's end, at most.
  static let deadline: Duration = .seconds(10)

  /// Runs the steps, within what is left of `deadline` after `signalled`.
  static func run(
    _ service: OfflineService, _ manager: OfflineManager, signalled: ContinuousClock.Instant
  ) async {
    manager.stopLaunching()
    service.stop()
    await manager.stop(suspendingRunning: true)
    _ = await service.waitForAnswers(until: signalled + deadline)
  }
}

/// Notes when SIGINT or SIGTERM comes, and from then on, ends the process with the signal's
/// exit code (130 or 143) if it still runs after ``ServeShutdown/deadline``.
///
/// The countdown runs on a thread of its own, started from ``ProcessSignals``' thread, so it
/// ends the process however busy or stuck the rest of it is.
final class ServeDeadline: Sendable {
  private let signalled = SignalMoment()

  init(signals: ProcessSignals = .shared) {
    signals.listen { [signalled] number in
      guard signalled.record() else { return }
      let code = number == SIGINT ? ExitCode.interrupted : ExitCode.terminated
      let thread = Thread {
        Thread.sleep(forTimeInterval: ServeShutdown.deadline.inSeconds)
        _exit(code)
      }
      thread.start()
    }
  }

  /// When the first signal came (now, if none came: the command was cancelled otherwise).
  var moment: ContinuousClock.Instant { signalled.moment ?? .now }
}

/// The moment of the first signal, written from the signal thread.
private final class SignalMoment: Sendable {
  private let value = Locked<ContinuousClock.Instant?>(nil)

  /// Notes now, once; true the first time.
  func record() -> Bool {
    value.withLock { moment in
      guard moment == nil else { return false }
      moment = .now
      return true
    }
  }

  var moment: ContinuousClock.Instant? { value.withLock { $0 } }
}
