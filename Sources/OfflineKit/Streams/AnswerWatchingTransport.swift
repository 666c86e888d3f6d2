import OfflineHTTP
import Synchronization

/// A transport that tells the piece engine how each request of a stream's pieces was
/// answered (the protocol and status of each response head, or a failure without one), so
/// ``PieceConcurrency`` can decide how many go at once. Requests go to the wrapped transport
/// as they are but for their receive buffer (below).
///
/// `onAnswer` runs once per request: on the request's delegate queue when its head arrives,
/// or on the awaiting task when it fails before one. A cancelled request is not reported.
/// ``received`` counts every body byte that reached a delegate, for the throughput.
///
/// Every request also goes out asking for a receive buffer of at most
/// ``receiveBufferSize`` (``HTTPRequest/receiveBufferSize``): up to 64 pieces are in flight,
/// each with its own buffer, and at the transport's 512 KiB for big files they added up
/// (peak RSS 52 to 69 MiB over HTTP/2 when the pieces in flight went from 8 to 64).
struct AnswerWatchingTransport: HTTPTransporting {
  /// How one request was answered.
  enum Answer: Sendable, Equatable {
    /// A response head came with this version ("HTTP/1.1", "HTTP/2") and status.
    case head(version: String, status: Int)
    /// The request failed for a reason that may pass (``HTTPError/isTransient``, or a
    /// response that was not valid HTTP) before any head came.
    case failure
  }

  /// A running sum of body bytes, shared by every request of the transport.
  final class ByteCount: Sendable {
    private let count = Atomic<Int64>(0)

    /// The bytes so far.
    var value: Int64 { count.load(ordering: .relaxed) }

    func add(_ bytes: Int) {
      count.add(Int64(bytes), ordering: .relaxed)
    }
  }

  /// The receive buffer a piece's request asks for: a typical segment (tens of KB) comes in
  /// one or two reads, one of a few hundred KB in about ten, and 64 pieces in flight hold
  /// 2 MiB of buffers, not 32. (64 KiB left peak RSS at 64.8 MiB over HTTP/2, median of 3.)
  static let pieceReceiveBufferSize = 32 << 10

  let base: any HTTPTransporting
  /// Body bytes received by every request so far.
  let received = ByteCount()
  let onAnswer: @Sendable (Answer) -> Void
  /// The receive buffer every request asks for at most.
  let receiveBufferSize: Int

  init(
    base: any HTTPTransporting, receiveBufferSize: Int = Self.pieceReceiveBufferSize,
    onAnswer: @escaping @Sendable (Answer) -> Void
  ) {
    self.base = base
    self.receiveBufferSize = receiveBufferSize
    self.onAnswer = onAnswer
  }

  func perform(_ request: HTTPRequest, delegate: any HTTPResponseDelegate)
    async throws(HTTPError) -> HTTPResponseHead
  {
    let watcher = HeadWatcher(delegate, received: received, onAnswer: onAnswer)
    var request = request
    request.receiveBufferSize = min(request.receiveBufferSize ?? .max, receiveBufferSize)
    do {
      return try await base.perform(request, delegate: watcher)
    } catch {
      if !watcher.sawHead, error.isTransient || error.kind == .protocolViolation {
        onAnswer(.failure)
      }
      throw error
    }
  }
}

/// Forwards every callback to the delegate it wraps, reporting the head on the way.
private final class HeadWatcher: HTTPResponseDelegate {
  private let base: any HTTPResponseDelegate
  private let received: AnswerWatchingTransport.ByteCount
  private let onAnswer: @Sendable (AnswerWatchingTransport.Answer) -> Void
  private let headSeen = Atomic(false)

  /// Whether the head came (read after `perform` returned or threw).
  var sawHead: Bool { headSeen.load(ordering: .acquiring) }

  init(
    _ base: any HTTPResponseDelegate, received: AnswerWatchingTransport.ByteCount,
    onAnswer: @escaping @Sendable (AnswerWatchingTransport.Answer) -> Void
  ) {
    self.base = base
    self.received = received
    self.onAnswer = onAnswer
  }

  func didReceiveHead(_ head: HTTPResponseHead) -> HTTPBodyDisposition {
    headSeen.store(true, ordering: .releasing)
    onAnswer(.head(version: head.version, status: head.status))
    return base.didReceiveHead(head)
  }

  func didReceiveBodyPart(_ bytes: UnsafeRawBufferPointer) throws {
    received.add(bytes.count)
    try base.didReceiveBodyPart(bytes)
  }
}
