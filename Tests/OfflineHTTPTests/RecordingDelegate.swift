import Foundation
import OfflineHTTP

#if canImport(Glibc)
  import Glibc
#endif

/// A test delegate that records one response: its head, its body (kept or only counted) and
/// the thread the callbacks ran on.
///
/// `@unchecked Sendable` is sound because the transport calls it on its one network thread,
/// one callback at a time, and a test reads the recorded values only after `perform` returned:
/// resuming the awaiting task orders every callback before that read. Tests that must watch a
/// transfer while it runs use ``WatchedDelegate`` instead.
final class RecordingDelegate: HTTPResponseDelegate, @unchecked Sendable {
  /// An error a delegate throws on purpose.
  struct Failure: Error, Equatable {
    var reason: String
  }

  private let disposition: (HTTPResponseHead) -> HTTPBodyDisposition
  private let keepsBody: Bool
  private let pausePerPart: useconds_t
  private let failure: Failure?

  /// Every head received (a transport should give exactly one).
  private(set) var heads: [HTTPResponseHead] = []
  /// The body, when the delegate keeps it.
  private(set) var body = Data()
  /// How many body bytes arrived.
  private(set) var byteCount = 0
  /// How many body parts arrived.
  private(set) var partCount = 0
  /// The threads the callbacks ran on.
  private(set) var threads: Set<pthread_t> = []

  /// Creates a delegate.
  ///
  /// - Parameters:
  ///   - keepsBody: Keep the bytes in ``body``, or only count them.
  ///   - pausePerPart: Sleep this long in every body callback, like a slow disk.
  ///   - failure: Throw this from the first body callback.
  ///   - disposition: The answer to each head; `.receive` by default.
  init(
    keepsBody: Bool = true,
    pausePerPart: Duration = .zero,
    failure: Failure? = nil,
    disposition: @escaping (HTTPResponseHead) -> HTTPBodyDisposition = { _ in .receive }
  ) {
    self.keepsBody = keepsBody
    self.pausePerPart = useconds_t(pausePerPart / .microseconds(1))
    self.failure = failure
    self.disposition = disposition
  }

  /// The one head received, or `nil` when none (or several) arrived.
  var head: HTTPResponseHead? { heads.count == 1 ? heads[0] : nil }

  func didReceiveHead(_ head: HTTPResponseHead) -> HTTPBodyDisposition {
    threads.insert(pthread_self())
    heads.append(head)
    return disposition(head)
  }

  func didReceiveBodyPart(_ bytes: UnsafeRawBufferPointer) throws {
    threads.insert(pthread_self())
    if let failure { throw failure }
    partCount += 1
    byteCount += bytes.count
    if keepsBody { body.append(contentsOf: bytes) }
    if pausePerPart > 0 { usleep(pausePerPart) }
  }
}
