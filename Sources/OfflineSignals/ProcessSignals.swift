import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// SIGINT and SIGTERM for the `offline` and `offline-export` executables, handed to listeners
/// on a thread of its own.
///
/// The handlers are installed at once, when ``shared`` is first used (before the command
/// starts), and they only write the signal's number to a pipe; a thread of ours reads the
/// pipe and calls the listeners. So a signal is never lost, whatever the process is doing
/// when it comes, and nothing waits for a free thread of Dispatch or of the task pool.
///
/// Dispatch signal sources did this before, and a race lost signals: the command's task
/// started before the trap was set, `serve` made its own sources for the same signals, and
/// when their registration (which installs Dispatch's handler, once per signal) came before
/// the trap's `signal(SIG_IGN)`, the signals stayed ignored for good. `offline serve` then
/// neither stopped on SIGTERM nor ended at its deadline, in about one run in ten of a
/// loaded service.
public final class ProcessSignals: Sendable {
  /// The signals the executable stops on.
  public static let handled: [Int32] = [SIGINT, SIGTERM]

  /// The process's one watcher; the first use installs the handlers and starts the thread.
  public static let shared = ProcessSignals()

  private struct State {
    var first: Int32?
    var listeners: [@Sendable (Int32) -> Void] = []
  }

  private let state = Mutex(State())

  private init() {
    var ends: [Int32] = [-1, -1]
    guard pipe(&ends) == 0 else {
      // Without a pipe nothing can be handed over: leave the signals' default actions,
      // which end the process as a signal ends any program.
      return
    }
    for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
    // A full pipe (signals faster than the thread reads them) must never block the handler.
    _ = fcntl(ends[1], F_SETFL, fcntl(ends[1], F_GETFL) | O_NONBLOCK)
    SignalPipe.writeEnd = ends[1]
    let reader = ends[0]
    let thread = Thread { [self] in
      var everything = sigset_t()
      sigfillset(&everything)
      pthread_sigmask(SIG_BLOCK, &everything, nil)
      var number: UInt8 = 0
      while true {
        let count = read(reader, &number, 1)
        if count == 1 {
          deliver(Int32(number))
        } else if count < 0 && errno == EINTR {
          continue
        } else {
          return
        }
      }
    }
    thread.name = "offline-signals"
    thread.start()
    for number in Self.handled {
      var action = sigaction()
      #if canImport(Glibc)
        action.__sigaction_handler.sa_handler = SignalPipe.handler
      #else
        action.__sigaction_u.__sa_handler = SignalPipe.handler
      #endif
      sigemptyset(&action.sa_mask)
      action.sa_flags = SA_RESTART
      sigaction(number, &action, nil)
    }
  }

  /// Calls `listener` on the watcher's thread for every SIGINT or SIGTERM from now on, and
  /// at once (on the caller's thread) with the first one if one already came. Listeners
  /// stay for the life of the process; each must return quickly.
  public func listen(_ listener: @escaping @Sendable (Int32) -> Void) {
    let already = state.withLock { state -> Int32? in
      state.listeners.append(listener)
      return state.first
    }
    if let already { listener(already) }
  }

  /// The first signal that came, nil while none has.
  public var first: Int32? { state.withLock { $0.first } }

  private func deliver(_ number: Int32) {
    let listeners = state.withLock { state in
      if state.first == nil { state.first = number }
      return state.listeners
    }
    for listener in listeners { listener(number) }
  }
}

/// What the signal handler touches: the pipe's write end, set before the handler is
/// installed and never changed after, and the handler itself, which calls nothing but
/// `write(2)` (async-signal-safe).
private enum SignalPipe {
  // Written once on the installing thread before any handler can run, read only by the
  // handler: no two accesses overlap, and exclusivity checks do not belong in a handler.
  @exclusivity(unchecked) nonisolated(unsafe) static var writeEnd: Int32 = -1

  static let handler: @convention(c) (Int32) -> Void = { number in
    let saved = errno
    var byte = UInt8(truncatingIfNeeded: number)
    _ = write(SignalPipe.writeEnd, &byte, 1)
    errno = saved
  }
}
