import TestTiming
import Testing

@testable import OfflineKit

/// Issue 38, item 1: what the runner does when another process changed the index, decided
/// inline between a read per content before, is a value: each row runs without an index.
@Suite(.timed) struct ExternalChangeTests {
  @Test func aCancelFinishesNowOrOnceItsDownloadHereHasStopped() {
    let changes = ExternalChange.decide(
      canceling: ["here", "elsewhere", "stopping"], stopping: ["stopping"],
      running: ["here", "stopping"], states: ["here": .canceling, "stopping": .canceling],
      known: [:])
    #expect(
      changes == [
        .stopThenFinishCleanup("here"), .finishCleanup("elsewhere"), .stop("here"),
        .stop("stopping"),
      ])
  }

  @Test func aDownloadRunningHereStopsWhenTheIndexNoLongerSaysDownloading() {
    let changes = ExternalChange.decide(
      canceling: [], stopping: [], running: ["paused", "gone", "moving"],
      states: ["paused": .suspended, "moving": .downloading], known: [:])
    #expect(changes == [.stop("gone"), .stop("paused")])
  }

  @Test func subscribersHearOfStatesThatMovedElsewhereAndOfNothingElse() {
    let changes = ExternalChange.decide(
      canceling: [], stopping: [], running: [],
      states: ["done": .downloaded, "same": .downloading],
      known: ["done": .downloading, "same": .downloading, "gone": .suspended])
    #expect(changes == [.announce("done", after: .downloading)])
  }
}
