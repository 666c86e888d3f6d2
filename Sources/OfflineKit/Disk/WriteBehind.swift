import CSystem
import Dispatch
import Synchronization

/// Starts the write-back of a file's new bytes as they come: every ``step`` bytes, the kernel
/// is asked to begin writing them to the device (`sync_file_range` with
/// `SYNC_FILE_RANGE_WRITE`), so the disk works while the network does and the `fdatasync`
/// before the rename finds little left to write. For bytes written one after the other from
/// a start offset (a part file, or one range of a segmented download).
///
/// The call is made on a queue of its own, never by the writer: `SYNC_FILE_RANGE_WRITE`
/// waits while the device's request queue is full, and on a busy disk (other processes
/// writing, as on a shared build machine) a profile showed it holding the body callback up
/// to 18 ms a call, long enough for the transport to pause the transfer. While a call is running, the
/// next steps gather and go in one call after it.
struct WriteBehind {
  /// How many written bytes make the kernel start writing them out.
  static let step: Int64 = 8 << 20

  private let descriptor: Int32
  /// Where the bytes not handed to write-back yet start.
  private var start: Int64
  private let worker: Worker

  /// - Parameter call: Starts the write-back of `count` bytes from `offset` (tests stand in
  ///   for `sync_file_range`).
  init(
    descriptor: Int32, from start: Int64,
    call: @escaping @Sendable (_ descriptor: Int32, _ offset: Int64, _ count: Int64) -> Void = {
      _ = ok_start_writeback($0, $1, $2)
    }
  ) {
    self.descriptor = descriptor
    self.start = start
    self.worker = Worker(call: call)
  }

  /// Notes that the bytes up to `end` are written; starts their write-back once a step of
  /// them has gathered. Never waits for the disk.
  mutating func wrote(upTo end: Int64) {
    guard end - start >= Self.step, worker.startWriteBack(descriptor, from: start, upTo: end)
    else { return }
    start = end
  }

  /// Forgets bytes past `length`, after the file was cut.
  mutating func cut(to length: Int64) {
    start = min(start, length)
  }

  /// Waits until no write-back call is running; before the descriptor is closed.
  func drain() {
    worker.drain()
  }

  /// Makes the calls, one at a time.
  ///
  /// `Sendable`: the queue is serial and the flag atomic; the descriptor is passed per call.
  private final class Worker: Sendable {
    private let queue = DispatchQueue(label: "OfflineKit.writeback")
    private let running = Atomic<Bool>(false)
    private let call: @Sendable (Int32, Int64, Int64) -> Void

    init(call: @escaping @Sendable (Int32, Int64, Int64) -> Void) {
      self.call = call
    }

    /// Queues the call for the bytes `start..<end`; false (nothing queued) while one runs.
    func startWriteBack(_ descriptor: Int32, from start: Int64, upTo end: Int64) -> Bool {
      guard running.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged
      else { return false }
      queue.async { [self] in
        call(descriptor, start, end - start)
        running.store(false, ordering: .releasing)
      }
      return true
    }

    func drain() {
      queue.sync {}
    }
  }
}
