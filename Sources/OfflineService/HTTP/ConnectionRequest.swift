import Foundation
import OfflineLocks

/// One request while libmicrohttpd reads and answers it: the request as admitted, its body
/// so far, and where its answer stands.
///
/// The body is touched only from the connection's pool thread; the phase is also written
/// by the task that works out the answer, so it sits in a `Locked`.
final class ConnectionRequest: Sendable {
  /// Where the answer stands.
  enum Phase: Sendable {
    /// Reading the body.
    case reading
    /// A task is working out the answer; the connection is suspended.
    case working
    /// The answer is ready to queue.
    case ready(HTTPResponse)
    /// Queued (or refused from the headers): later calls do nothing.
    case answered
  }

  private let state: Locked<(request: HTTPRequest, phase: Phase)>

  init(request: HTTPRequest) {
    state = Locked((request, .reading))
  }

  var request: HTTPRequest { state.withLock { $0.request } }

  var phase: Phase {
    get { state.withLock { $0.phase } }
    set { state.withLock { $0.phase = newValue } }
  }

  /// Appends body bytes unless that would pass `limit`; false when it would.
  func append(_ bytes: UnsafePointer<UInt8>, count: Int, limit: Int) -> Bool {
    state.withLock { state in
      guard state.request.body.count + count <= limit else { return false }
      state.request.body.append(bytes, count: count)
      return true
    }
  }
}
