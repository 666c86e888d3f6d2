import Dispatch
import Foundation
import Synchronization

/// Turns SIGINT and SIGTERM into cancellation of one task, remembering which signal came,
/// so the command can stop cleanly (partial data and journal kept) and exit 130 or 143.
final class SignalTrap {
  private let sources: [any DispatchSourceSignal]
  private let received = ReceivedSignal()

  init(cancelling task: Task<Int32, Never>) {
    var sources: [any DispatchSourceSignal] = []
    for signalNumber in [SIGINT, SIGTERM] {
      signal(signalNumber, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
      sources.append(source)
    }
    self.sources = sources
    for (source, signalNumber) in zip(sources, [SIGINT, SIGTERM]) {
      source.setEventHandler { [received] in
        received.record(signalNumber)
        task.cancel()
      }
      source.resume()
    }
  }

  /// The exit code for the signal that stopped the command, if one did.
  var exitCode: Int32? {
    switch received.first {
    case SIGINT: ExitCode.interrupted
    case SIGTERM: ExitCode.terminated
    default: nil
    }
  }

  deinit {
    for source in sources { source.cancel() }
  }
}

/// The first signal received, written from a Dispatch queue and read by the command.
private final class ReceivedSignal: Sendable {
  private let value = Atomic<Int32>(0)

  func record(_ signalNumber: Int32) {
    _ = value.compareExchange(expected: 0, desired: signalNumber, ordering: .relaxed)
  }

  var first: Int32 { value.load(ordering: .relaxed) }
}
