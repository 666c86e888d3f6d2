import Dispatch
import OfflineLocks
import TestTiming
import Testing

@testable import OfflineKit

/// The write-back started behind a part file's writer (issue 14, the plain 1 GiB case).
@Suite(.timed) struct WriteBehindTests {
  /// The write-back calls made, and a gate that holds the first one until opened.
  final class Device: Sendable {
    let calls = Locked<[ClosedRange<Int64>]>([])
    let gate = DispatchSemaphore(value: 0)
    let entered = DispatchSemaphore(value: 0)

    func call(_ descriptor: Int32, _ offset: Int64, _ count: Int64) {
      let first = calls.withLock { calls -> Bool in
        calls.append(offset...(offset + count - 1))
        return calls.count == 1
      }
      if first {
        entered.signal()
        gate.wait()
      }
    }
  }

  /// Pins issue 14: `sync_file_range` ran on the writer's own thread, so a busy device (its
  /// request queue full) held the body callback, and the transport paused the transfer.
  /// Here the first call blocks until the test opens the gate; the writer goes on writing
  /// meanwhile (with the old synchronous call this test never got past the first step).
  @Test func theWriterGoesOnWhileTheDeviceIsBusy() throws {
    let device = Device()
    let step = WriteBehind.step
    var behind = WriteBehind(descriptor: 3, from: 0, call: device.call)
    behind.wrote(upTo: step)
    // The first call is running and blocked (on the write-back's own queue, not the pool).
    try #require(device.entered.wait(timeout: .now() + 10) == .success)
    behind.wrote(upTo: 2 * step)
    behind.wrote(upTo: 3 * step)
    #expect(device.calls.withLock { $0 } == [0...(step - 1)])
    device.gate.signal()
    behind.drain()
    // The steps written while the device was busy go in one call after it.
    behind.wrote(upTo: 3 * step + 1)
    behind.drain()
    #expect(device.calls.withLock { $0 } == [0...(step - 1), step...(3 * step)])
  }

  @Test func lessThanAStepStartsNoWriteBack() {
    let device = Device()
    var behind = WriteBehind(descriptor: 3, from: 100, call: device.call)
    behind.wrote(upTo: 100 + WriteBehind.step - 1)
    behind.drain()
    #expect(device.calls.withLock { $0 }.isEmpty)
  }
}
