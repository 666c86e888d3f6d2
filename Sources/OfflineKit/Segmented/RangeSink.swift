import Foundation
import OfflineHTTP
import OfflineStore

/// Receives one connection's range of a segmented download and writes it in place, at its
/// offsets in the shared part file; the chunks and pieces it writes whole are hashed behind
/// it, read back from the file once on a queue of their own (``HashBehind``), so the body
/// callback only writes.
///
/// `@unchecked Sendable`: its own members are touched on the transport's thread during the
/// request and read by the connection's task after it; shared state is in ``RangeBoard``,
/// and ``HashBehind`` has its own lock.
final class RangeSink: HTTPResponseDelegate, @unchecked Sendable {
  /// Thrown from a body callback when the range is complete (its end may have moved back).
  struct RangeDone: Error {}

  let board: RangeBoard
  let slot: Int
  let descriptor: Int32
  let expectedStart: Int64
  /// One past the last byte the request asks for.
  let requestEnd: Int64
  private(set) var head: HTTPResponseHead?
  /// When the response's head came: the request's time to first byte, with when it went out.
  private(set) var headArrived: ContinuousClock.Instant?
  private(set) var accepted = false
  private(set) var rangeDone = false
  private(set) var writeFailure: TransferFileError?
  private(set) var received: Int64 = 0
  /// The slot's range as this sink last saw it: written bytes are placed from it
  /// (``RangeBoard/didWrite(_:count:)`` says why that holds while another connection splits
  /// the range).
  private var known: TransferRange
  private var writeBehind: WriteBehind
  /// Hashes the chunks this range completes (no hasher: the transfer records none).
  private let hashes: HashBehind

  /// A sink for the request of `slot` that asks for `request` (from the range's `next`);
  /// `chunks` and `pieces` are fed the bytes it writes, read back.
  init(
    board: RangeBoard, slot: Int, request: Range<Int64>, descriptor: Int32,
    chunks: ChunkHasher? = nil, pieces: BlockHasher? = nil
  ) {
    self.board = board
    self.slot = slot
    self.descriptor = descriptor
    let known = board.range(slot)
    self.known = known
    self.expectedStart = known.next
    self.requestEnd = request.upperBound
    self.writeBehind = WriteBehind(descriptor: descriptor, from: expectedStart)
    self.hashes = HashBehind(
      descriptor: descriptor, from: expectedStart, whole: nil, chunks: chunks, pieces: pieces)
  }

  /// Hashes what is left of the bytes this sink wrote and waits until nothing reads the file
  /// (or starts its write-back) for it any more; call once its request has returned, before
  /// the file is closed. A chunk
  /// whose read back fails is not recorded (the transfer's finish hashes it from the file).
  func finishHashing() {
    try? hashes.finish()
    hashes.stop()
    writeBehind.drain()
  }

  /// The file's length a mirror's `Content-Range` must tell, before any byte of it is
  /// written (nil: not checked, the primary's own ranges).
  var expectedTotal: Int64?

  /// Told, on the transport's thread, of the bytes written since it was last told, each
  /// time a write reaches or crosses a multiple of ``pieceLength`` or ends the range, and by
  /// ``flushLanded()``: a piece whose bytes are all written is checked at once.
  var landed: (@Sendable (Range<Int64>) -> Void)?
  /// The length of the pieces ``landed`` is told of; 0 tells only at the range's end.
  var pieceLength: Int64 = 0
  /// Where the bytes not yet told to ``landed`` start.
  private var toldUpTo: Int64?

  /// Tells ``landed`` of the bytes written and not yet told; call once the request returned.
  func flushLanded() {
    let from = toldUpTo ?? expectedStart
    let end = expectedStart + received
    guard let landed, end > from else { return }
    toldUpTo = end
    landed(from..<end)
  }

  func didReceiveHead(_ head: HTTPResponseHead) -> HTTPBodyDisposition {
    self.head = head
    headArrived = .now
    guard head.status == 206, let header = head.headers["Content-Range"],
      let range = ContentRange(header), case .satisfied(let first, _, _) = range,
      first == expectedStart
    else { return .stop }
    if let expectedTotal, range.completeLength != expectedTotal { return .stop }
    accepted = true
    return .receive
  }

  func didReceiveBodyPart(_ part: UnsafeRawBufferPointer) throws {
    var bytes = part
    // At most `writeGrain` bytes at a time from the range last seen (see `known`).
    while !bytes.isEmpty, known.remaining > 0 {
      let count = Int(min(Int64(bytes.count), known.remaining, board.writeGrain))
      try write(UnsafeRawBufferPointer(rebasing: bytes[..<count]))
      bytes = UnsafeRawBufferPointer(rebasing: bytes[count...])
    }
    guard known.remaining == 0 else { return }
    rangeDone = true
    // The response ends here by itself when the request ends with the range: it finishes,
    // and its connection serves the next request. Else a split moved the end back below
    // what was asked for (or the origin sent more): stop it.
    if !bytes.isEmpty || known.end < requestEnd { throw RangeDone() }
  }

  /// Writes `bytes` at the range's next offset and records them on the board.
  private func write(_ bytes: UnsafeRawBufferPointer) throws {
    let offset = known.next
    let count = bytes.count
    // Held for the write alone: the hashes below may wait for their reader.
    board.writes.lock()
    var failure: TransferFileError?
    do {
      try FileSteps.writeAll(bytes, at: offset, to: descriptor)
    } catch {
      failure = error
    }
    board.writes.unlock()
    if let failure {
      writeFailure = failure
      throw failure
    }
    known = board.didWrite(slot, count: count)
    received += Int64(count)
    if landed != nil {
      let end = offset + Int64(count)
      let crossed = pieceLength > 0 && end / pieceLength > offset / pieceLength
      if crossed || known.remaining == 0 { flushLanded() }
    }
    writeBehind.wrote(upTo: offset + Int64(count))
    do {
      try hashes.wrote(upTo: offset + Int64(count))
    } catch {
      writeFailure = error
      throw error
    }
  }
}
