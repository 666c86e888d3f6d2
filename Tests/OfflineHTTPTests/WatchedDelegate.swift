import Foundation
import OfflineHTTP
import OfflineLocks

/// A test delegate that a test can read while the transfer runs: it counts body bytes and
/// notes any callback that arrives after the test ``close()``d it.
final class WatchedDelegate: HTTPResponseDelegate {
  private struct State {
    var byteCount = 0
    var closed = false
    var callbacksAfterClose = 0
  }

  private let state = Locked(State())

  /// How many body bytes arrived so far.
  var byteCount: Int { state.withLock { $0.byteCount } }

  /// How many callbacks ran after ``close()``; a finished transfer must make none.
  var callbacksAfterClose: Int { state.withLock { $0.callbacksAfterClose } }

  /// Marks the transfer as over for this delegate: any later callback is counted.
  func close() {
    state.withLock { $0.closed = true }
  }

  /// Waits until at least `count` body bytes arrived, checking every 10 ms for at most
  /// `limit`; returns whether they did.
  func waitForBytes(atLeast count: Int, limit: Duration = .seconds(5)) async -> Bool {
    for _ in 0..<max(1, Int(limit / .milliseconds(10))) {
      if byteCount >= count { return true }
      try? await Task.sleep(for: .milliseconds(10))
    }
    return byteCount >= count
  }

  func didReceiveHead(_ head: HTTPResponseHead) -> HTTPBodyDisposition {
    state.withLock { if $0.closed { $0.callbacksAfterClose += 1 } }
    return .receive
  }

  func didReceiveBodyPart(_ bytes: UnsafeRawBufferPointer) throws {
    state.withLock {
      if $0.closed { $0.callbacksAfterClose += 1 }
      $0.byteCount += bytes.count
    }
  }
}
