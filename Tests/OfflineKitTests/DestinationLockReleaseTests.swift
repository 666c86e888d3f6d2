import Foundation
import TestSupport
import TestTiming
import Testing

@testable import OfflineKit

/// When the destination's lock ends: at ``DestinationLock/release()``, the end of the
/// transfer's run, not whenever its value happens to be freed.
@Suite(.timed) struct DestinationLockReleaseTests {
  // Pins: a transfer run again at once after a stopped run was refused now and then ("Another
  // process is downloading to ...; only one download may write a file at a time"), in a run
  // of the suite six tests at a time: the lock ended only when its value was freed, and a
  // task that had captured it could free it after the stopped run had returned.
  @Test func aReleasedLockLetsTheNextWriterInWhileItsValueStillLives() async throws {
    let fixture = try TransferFixture()
    let url = try #require(URL(string: "http://127.0.0.1:9/file.bin"))
    let held = try await DestinationLock.acquire(for: fixture.transfer(url), waits: false)
    // Bytes in the part, as a stopped run leaves: `release` keeps it (an empty one it removes,
    // and a new part is a new file, with no lock on it yet).
    let bytes = Array("partial".utf8)
    #expect(write(held.descriptor, bytes, bytes.count) == bytes.count)

    do {
      _ = try await DestinationLock.acquire(for: fixture.transfer(url), waits: false)
      Issue.record("a second writer got the lock while the first held it")
    } catch {
      guard case .destinationBusy = error.kind else {
        Issue.record("unexpected \(error)")
        return
      }
    }

    held.release()
    let next = try await DestinationLock.acquire(for: fixture.transfer(url), waits: false)
    withExtendedLifetime(held) {}
    next.release()
  }
}
