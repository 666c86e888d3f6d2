import Foundation
import OfflineLocks
import TestSupport

@testable import OfflineKit

/// Moves a ``ManualClock`` on by `step` each time something is parked on it, until stopped:
/// the runner's polls, retries, backoffs and progress ticks see time pass as fast as they
/// park, while the test waits only for what really happens (bytes from nginx, a process).
///
/// It never sleeps to make time pass: the clock moves by hand; the pump looks every
/// millisecond whether anything is parked, and stops after `limit` of manual time so a
/// test that never finishes fails instead of running forever.
final class ClockPump: Sendable {
  let clock: ManualClock
  private let task: Task<Void, Never>

  /// Starts moving `clock` on by `step` at most `limit` in all.
  init(_ clock: ManualClock, step: Duration, limit: Duration = .seconds(24 * 3600)) {
    self.clock = clock
    let end = clock.instant + limit
    task = Task {
      while !Task.isCancelled, clock.instant < end {
        if clock.sleepers.isEmpty {
          try? await Task.sleep(for: .milliseconds(1))  // waits for a sleeper, not for time
        } else {
          clock.advance(by: step)
          await Task.yield()
        }
      }
    }
  }

  /// Stops moving the clock.
  func stop() {
    task.cancel()
  }

  deinit { task.cancel() }
}

/// Runs `manager.runUntilIdle()` while `clock` is moved on by `step` whenever something
/// sleeps on it; returns whether it came back by itself within `timeout` of real time.
func runUntilIdle(
  _ manager: OfflineManager, advancing clock: ManualClock, by step: Duration,
  timeout: Duration = .seconds(30)
) async throws -> Bool {
  let pump = ClockPump(clock, step: step)
  defer { pump.stop() }
  return try await runUntilIdle(manager, timeout: timeout)
}

/// A manager configuration for tests (``ManagerFixture/configuration(parallelDownloads:)``)
/// on `clock`.
func managerConfiguration(on clock: ManualClock) -> OfflineManager.Configuration {
  var configuration = ManagerFixture.configuration()
  configuration.clock = clock
  return configuration
}
