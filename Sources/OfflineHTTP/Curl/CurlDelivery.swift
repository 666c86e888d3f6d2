import Dispatch
import Foundation
import OfflineLocks

/// Hands one request's response to its delegate on a serial queue of the request's own, so
/// the network thread never waits for a delegate.
///
/// Before, every delegate ran on the one network thread: a delegate waiting on its disk or
/// its database (a journal commit, an `fdatasync`) stopped every other transfer of the
/// transport. Now the network thread copies body parts into blocks of about ``blockSize``
/// and queues them; the queue calls the delegate, one callback at a time, in order. Once
/// ``highWater`` bytes wait for the delegate, libcurl's write callback pauses this transfer
/// (`CURL_WRITEFUNC_PAUSE`: the server is held back by TCP, as before); when they have
/// drained to ``lowWater`` the queue asks the loop to go on. The head is answered on the
/// queue too. The body is gathered meanwhile, within the same ``highWater``, and its parts
/// reach the delegate only once it answered `.receive` (dropped otherwise): before, the body
/// waited paused for the answer, which cost every response a round trip between the threads
/// (the queue's answer, the loop woken, another turn of libcurl) and a small one, whose body
/// comes with its head, most of its time.
///
/// Blocks are recycled: the queue hands a delivered block back (``State/spare``), so a long
/// download allocates a few buffers, not one per block (fresh 256 KiB buffers are mapped and
/// unmapped by malloc each time, which cost a fifth more CPU over a loopback download). When
/// the request ends its blocks go to a pool the whole process shares (``pool``), so the
/// next request gathers into memory already mapped: a queue of small files, each its own
/// request, had every body copied into a fresh block that grew by doubling, and the page
/// faults and zeroing of those blocks were 6-7 % of a 1000-file run's CPU.
///
/// The loop hands work to the queue in as few `async` calls as it can (``submit()``): what
/// a turn of libcurl brought for one request (its head, a last block, its end) goes over
/// together at the turn's end or with the request's end, a full block at once. A small
/// response's head, body and end were three hand-offs, each able to wake a thread.
///
/// `@unchecked Sendable` is sound because `block` and `pending` are touched only by the
/// loop's thread (a block queued for delivery belongs to the queue until it comes back
/// through `state`),
/// everything the queue shares with the loop is in `state` (a lock), and the rest is
/// immutable.
final class CurlDelivery: @unchecked Sendable {
  /// Bytes waiting for the delegate at which the transfer pauses.
  static let highWater = 2 << 20
  /// Bytes waiting for the delegate at which a paused transfer goes on.
  static let lowWater = 512 << 10
  /// Bytes gathered before a block is queued (the loop also queues what it has after each
  /// turn, so a slow trickle reaches the delegate at once).
  static let blockSize = 256 << 10

  /// What the body callback does with a part.
  enum Intake: Equatable {
    /// Keep it: it was copied for the delegate, or dropped on the delegate's request.
    case taken
    /// Pause the transfer; libcurl hands the same part again when it goes on.
    case pause
    /// Stop the transfer: the delegate failed, answered `.stop`, or the request ended.
    case stop
  }

  private struct State {
    /// Bytes queued and not yet delivered.
    var queuedBytes = 0
    /// Whether the body callback paused the transfer and waits for ``wake``.
    var paused = false
    /// The delegate's answer to the head, nil until it gave one.
    var disposition: HTTPBodyDisposition?
    /// What the delegate threw; nothing more is delivered after it.
    var failure: (any Error & Sendable)?
    /// Set when the request was cancelled: what is queued is dropped.
    var dropping = false
    /// Delivered blocks, emptied, for the loop to gather into again.
    var spare: [Block] = []
  }

  /// Body parts gathered back to back, and where each ends. Owned by one side at a time:
  /// the loop while it gathers, the queue while it delivers, then `spare`, then the pool.
  /// Made with room for a whole block and the part that takes it past ``blockSize``
  /// (libcurl hands at most 16 KiB at a time), so gathering never grows it.
  private final class Block: @unchecked Sendable {
    var bytes: [UInt8] = []
    var ends: [Int] = []

    init() {
      bytes.reserveCapacity(CurlDelivery.blockSize + CurlDelivery.largestPart)
      ends.reserveCapacity(64)
    }
  }

  /// The largest body part libcurl hands to a write callback (`CURL_MAX_WRITE_SIZE`).
  private static let largestPart = 16 << 10

  /// Emptied blocks of requests that ended, for the next requests of the process: at most
  /// 16 (about 4.3 MiB), the rest freed.
  private static let pool = ReusePool<Block>(capacity: 16)

  /// Spare blocks kept per request.
  private static let spareBlocks = 4

  private let queue = DispatchQueue(label: "OfflineKit.curl.delivery")
  private let state = Locked(State())
  private let delegate: any HTTPResponseDelegate
  private let wake: @Sendable () -> Void
  private var block = CurlDelivery.pool.take() ?? Block()
  /// Work for the queue not handed over yet, in order.
  private var pending: [@Sendable () -> Void] = []

  /// - Parameter wake: Asks the loop to unpause this transfer; called from the queue.
  init(delegate: any HTTPResponseDelegate, wake: @escaping @Sendable () -> Void) {
    self.delegate = delegate
    self.wake = wake
  }

  /// Hands the blocks back to the pool: nothing gathers into or delivers from them once the
  /// delivery is gone (every queued delivery holds the delivery itself).
  deinit {
    var blocks = state.withLock { state in
      defer { state.spare.removeAll() }
      return state.spare
    }
    if block.bytes.isEmpty { blocks.append(block) }
    for emptied in blocks {
      guard Self.pool.give(emptied) else { break }  // full: the rest are freed
    }
  }

  /// What the delegate threw, if it did.
  var failure: (any Error & Sendable)? { state.withLock { $0.failure } }

  /// Whether the delegate answered the head with `.stop`.
  var stopped: Bool { state.withLock { $0.disposition == .stop } }

  // MARK: - On the loop's thread

  /// Queues the final head for the delegate (handed over with what follows it in this turn).
  func deliverHead(_ head: HTTPResponseHead) {
    pending.append { [self] in
      let answer = state.withLock { $0.dropping } ? .stop : delegate.didReceiveHead(head)
      let goOn = state.withLock { state -> Bool in
        state.disposition = answer
        defer { state.paused = false }
        return state.paused
      }
      if goOn { wake() }
    }
  }

  /// Takes one body part from libcurl.
  func take(_ bytes: UnsafeRawBufferPointer) -> Intake {
    let gathered = block.bytes.count
    let (decision, queuesGathered) = state.withLock { state -> (Intake?, Bool) in
      if state.failure != nil || state.dropping { return (.stop, false) }
      switch state.disposition {
      case .stop?:
        return (.stop, false)
      case .discard?:
        return (.taken, false)
      case .receive?, nil:
        // Before the answer too: what is gathered then is delivered after it, or dropped.
        guard state.queuedBytes + gathered + bytes.count > Self.highWater,
          state.queuedBytes + gathered > 0
        else { return (nil, false) }
        // Count what is gathered and pause in one step, so the queue, draining it, sees
        // the pause and wakes the loop.
        state.queuedBytes += gathered
        state.paused = true
        return (.pause, true)
      }
    }
    if queuesGathered {
      queueBlock()
      submit()
    }
    if let decision { return decision }
    block.bytes.append(contentsOf: bytes)
    block.ends.append(block.bytes.count)
    if block.bytes.count >= Self.blockSize { flush() }
    return .taken
  }

  /// Hands the queue everything gathered so far: the loop calls it at the end of each turn.
  func flush() {
    queueGathered()
    submit()
  }

  /// Queues the parts gathered so far, counted as queued.
  private func queueGathered() {
    guard !block.bytes.isEmpty else { return }
    let count = block.bytes.count
    state.withLock { $0.queuedBytes += count }
    queueBlock()
  }

  /// Queues the end of the request behind everything queued before it: `resume` gets the
  /// result once the delegate has had every part it will get. A delegate that threw turns
  /// the result into ``HTTPError/Code-swift.struct/delegateFailed``; a cancelled request drops
  /// what is still queued.
  func finish(
    _ result: Result<HTTPResponseHead, HTTPError>, url: URL,
    resume: @escaping @Sendable (Result<HTTPResponseHead, HTTPError>) -> Void
  ) {
    if case .failure(let error) = result, error.kind == .canceled {
      state.withLock { $0.dropping = true }
      block.bytes.removeAll(keepingCapacity: true)
      block.ends.removeAll(keepingCapacity: true)
    } else {
      queueGathered()
    }
    pending.append { [self] in
      var final = result
      if let failure, final.isCancellation == false {
        final = .failure(HTTPError(.delegateFailed, url: url, underlying: failure))
      }
      resume(final)
    }
    submit()
  }

  /// Puts the gathered parts (already counted in `queuedBytes`) behind the pending work, and
  /// goes on gathering into a spare block.
  private func queueBlock() {
    let full = block
    guard !full.bytes.isEmpty else { return }
    block = state.withLock { $0.spare.popLast() } ?? Self.pool.take() ?? Block()
    pending.append { [self] in deliver(full) }
  }

  /// Hands the pending work to the queue in one `async`.
  private func submit() {
    guard !pending.isEmpty else { return }
    let work = pending
    pending = []
    ThreadHandOff.release(self)
    queue.async { [self] in
      ThreadHandOff.acquire(self)
      for item in work { item() }
    }
  }

  // MARK: - On the delivery queue

  private func deliver(_ block: Block) {
    var thrown: (any Error & Sendable)?
    // The head's answer came first (the queue is in order): parts gathered before it are
    // the delegate's only when it said `.receive`.
    if state.withLock({ $0.failure == nil && !$0.dropping && $0.disposition == .receive }) {
      do {
        try block.bytes.withUnsafeBytes { raw in
          var start = 0
          for end in block.ends {
            try delegate.didReceiveBodyPart(UnsafeRawBufferPointer(rebasing: raw[start..<end]))
            start = end
          }
        }
      } catch {
        thrown = error
      }
    }
    let count = block.bytes.count
    block.bytes.removeAll(keepingCapacity: true)
    block.ends.removeAll(keepingCapacity: true)
    let goOn = state.withLock { state -> Bool in
      state.queuedBytes -= count
      if state.spare.count < Self.spareBlocks { state.spare.append(block) }
      if let thrown, state.failure == nil { state.failure = thrown }
      // A failure wakes a paused transfer too, so its next body callback stops it.
      guard state.paused, state.failure != nil || state.queuedBytes <= Self.lowWater else {
        return false
      }
      state.paused = false
      return true
    }
    if goOn { wake() }
  }
}

extension Result where Failure == HTTPError {
  /// Whether this is the failure of a cancelled request.
  fileprivate var isCancellation: Bool {
    if case .failure(let error) = self { return error.kind == .canceled }
    return false
  }
}
