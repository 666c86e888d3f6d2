import Dispatch
import Foundation
import TestTiming
import Testing

@testable import OfflineKit

/// Session 24 (issue 14, "1000 files of 100 KiB ≤ 1.2x curl"): a transfer's last write waits
/// for the device (it goes past the page cache), and it ran on a thread of Swift
/// concurrency's pool, which has one per core; the queue's other transfers waited for a
/// thread meanwhile. ``DeviceWaits`` runs such work on threads of its own.
@Suite(.timed) struct DeviceWaitsTests {
  /// Work that waits outside the pool leaves the pool free: more blocked pieces of work than
  /// the pool has threads, and a task on the pool still runs and releases them. Were the
  /// work run on the pool, the task could not run until every wait timed out.
  @Test func waitingWorkLeavesTheCooperativePoolFree() async {
    let waiting = min(ProcessInfo.processInfo.activeProcessorCount + 1, DeviceWaits.laneCount)
    let release = DispatchSemaphore(value: 0)
    let started = DispatchSemaphore(value: 0)
    let released = await withTaskGroup(of: Bool.self) { group in
      for _ in 0..<waiting {
        group.addTask {
          await DeviceWaits.run { () -> Bool in
            started.signal()
            return release.wait(timeout: .now() + 10) == .success
          }
        }
      }
      group.addTask {
        // Runs on the pool; releases the work once all of it waits (or after 5 s, should
        // another test's work share a lane and hold one back).
        for _ in 0..<waiting { _ = started.wait(timeout: .now() + 5) }
        for _ in 0..<waiting { release.signal() }
        return true
      }
      var all: [Bool] = []
      for await result in group { all.append(result) }
      return all
    }
    #expect(released == Array(repeating: true, count: waiting + 1))
  }

  /// What the work throws comes back to the caller, typed; what it returns, unchanged.
  @Test func returnsWhatTheWorkReturnsAndThrowsWhatItThrows() async throws {
    let value = await DeviceWaits.run { () -> Int in 42 }
    #expect(value == 42)
    let error = TransferFileError(.write, errno: ENOSPC, path: "/somewhere/f.part")
    await #expect(throws: error) {
      try await DeviceWaits.run { () throws(TransferFileError) -> Int in throw error }
    }
  }
}
