import Foundation
import OfflineHTTP
import OfflineStore
import TestTiming
import Testing

@testable import OfflineKit

/// The queue's state and decisions as one value (issue 38, item 1): what the actor decided
/// inline before, between index reads and writes (`pump()`'s reachability and space
/// verdicts, `didEnd`'s and `didFail`'s bookkeeping, the refresh answer, the external
/// change, the stop loop, the replaced URL, the kept rate cap), one row per test, with no
/// database, transport or clock: the time, reachability and space are handed in.
@Suite(.timed) struct QueueMachineTests {
  static let now = ContinuousClock.now
  static let date = Date(timeIntervalSince1970: 1_800_000_000)

  static func record(
    _ id: String, host: String = "a.test", total: Int64? = nil,
    waitReason: ContentWaitReason? = .queued
  ) -> ContentRecord {
    ContentRecord(
      id: id, url: "https://\(host)/\(id).bin", fileName: "\(id).bin", state: .downloading,
      total: total, waitReason: waitReason)
  }

  static func download(host: String = "a.test", url: String = "https://a.test/x.bin")
    -> RunningDownload
  {
    var download = RunningDownload(task: Task {}, host: host, launchedURL: url, lastSaved: now)
    download.indexedReason = .queued  // as launched from the queue
    return download
  }

  /// A world where every host is reachable but `down`, the disk holds `available` bytes of
  /// `capacity`, and `looks` counts the looks at the disk.
  final class World: @unchecked Sendable {  // used on one test's thread only
    var down: Set<String> = []
    var space = StorageSpace(available: 1_000, capacity: 2_000)
    var looks: [String] = []

    var surroundings: QueueMachine.Surroundings {
      QueueMachine.Surroundings(
        isReachable: { !self.down.contains($0) },
        space: { record in
          self.looks.append(record.id)
          return (self.space, nil)
        }, margin: 10)
    }
  }

  // MARK: Launches

  @Test func rowsStartUpToTheFreeSlotsInQueueOrder() {
    var machine = QueueMachine(parallelDownloads: 2)
    machine.didLaunch("r", as: Self.download())
    let rows = ["a", "b", "c"].map { Self.record($0) }
    let launches = machine.launches(
      from: rows, committing: [], at: Self.now, in: World().surroundings)
    #expect(launches == [.start(rows[0], url: URL(string: rows[0].url)!, host: "a.test")])
  }

  @Test func rowsRunningStoppingOrInABatchAreLeftOut() {
    var machine = QueueMachine(parallelDownloads: 4)
    machine.didLaunch("a", as: Self.download())
    machine.didLaunch("b", as: Self.download())
    _ = machine.startStopping("b")
    let rows = ["a", "b", "c", "d"].map { Self.record($0) }
    let world = World()
    let launches = machine.launches(
      from: rows, committing: ["c"], at: Self.now, in: world.surroundings)
    #expect(launches.map(\.id) == ["d"])
    #expect(world.looks == ["d"])
  }

  @Test func anUnreachableHostWaitsForTheNetworkWithoutALookAtTheDisk() {
    var machine = QueueMachine(parallelDownloads: 2)
    let world = World()
    world.down = ["down.test"]
    let rows = [Self.record("a", host: "down.test"), Self.record("b")]
    let launches = machine.launches(
      from: rows, committing: [], at: Self.now, in: world.surroundings)
    #expect(launches.first == .wait(.network, rows[0]))
    #expect(launches.last?.starts == true)
    #expect(world.looks == ["b"])
  }

  @Test func aRowWithoutTheSpaceWaitsAndIsNotLookedAtAgainBeforeItsDelay() {
    var machine = QueueMachine(parallelDownloads: 2)
    let world = World()
    let big = Self.record("big", total: 1_500)
    #expect(
      machine.launches(from: [big], committing: [], at: Self.now, in: world.surroundings)
        == [.wait(.storage, big)])
    // Now recorded as waiting for storage: not due at once, due after its delay.
    let waiting = Self.record("big", total: 1_500, waitReason: .storage)
    #expect(
      machine.launches(from: [waiting], committing: [], at: Self.now, in: world.surroundings)
        .isEmpty)
    #expect(world.looks == ["big"])
    world.space = StorageSpace(available: 1_800, capacity: 2_000)
    let later = Self.now + StorageWaits.firstDelay
    #expect(
      machine.launches(from: [waiting], committing: [], at: later, in: world.surroundings)
        .map(\.id) == ["big"])
  }

  @Test func aRowLargerThanTheEmptyDiskCannotStart() {
    var machine = QueueMachine(parallelDownloads: 1)
    let huge = Self.record("huge", total: 5_000)
    let launches = machine.launches(
      from: [huge], committing: [], at: Self.now, in: World().surroundings)
    #expect(launches == [.cannotStart(huge, needed: 3_010, capacity: 2_000)])
  }

  // MARK: Progress and ends

  @Test func progressOfADownloadNoLongerRunningDoesNothing() {
    var machine = QueueMachine(parallelDownloads: 1)
    let progress = OfflineProgress(bytes: 5, total: 10)
    #expect(machine.didProgress(progress, of: "gone", at: Self.now) == nil)
    machine.didLaunch("a", as: Self.download())
    #expect(machine.didProgress(progress, of: "a", at: Self.now)?.recordsMoving == true)
  }

  /// The runner's turn marks `starting` the downloads whose bytes have not come, once each
  /// and all in one write; one whose bytes came is not marked.
  @Test func theRunnersTurnMarksStartingOnlyWhatHasNoBytesYetAndOnlyOnce() {
    var machine = QueueMachine(parallelDownloads: 3)
    for id in ["a", "b", "c"] { machine.didLaunch(id, as: Self.download()) }
    _ = machine.didProgress(OfflineProgress(bytes: 5, total: 10), of: "b", at: Self.now)
    #expect(machine.unrecordedStarts == ["a", "c"])
    machine.didRecordStarting(["a", "c"])
    #expect(machine.unrecordedStarts.isEmpty)
    #expect(
      machine.didProgress(OfflineProgress(bytes: 5, total: 10), of: "a", at: Self.now)?
        .recordsMoving == true, "its first bytes clear the `starting` the turn wrote")
  }

  @Test func anEndAfterAStopIsStoppedAndAFileWaitsForItsBatch() {
    var machine = QueueMachine(parallelDownloads: 2)
    let outcome = Transfer.Outcome(
      destination: "/d/a.bin", length: 7, sha256: nil, wasAlreadyComplete: false,
      bytesReceived: 7, check: .length)
    guard case .stopped = machine.didEnd("a", outcome: .success(outcome)) else {
      Issue.record("an end of a download not running here is a stop")
      return
    }
    var file = Self.download()
    file.syncsLater = true
    machine.didLaunch("a", as: file)
    guard case .commit(let committed) = machine.didEnd("a", outcome: .success(outcome)) else {
      Issue.record("a file waits for its batch")
      return
    }
    #expect(committed.length == 7 && machine.running.isEmpty)
    machine.didLaunch("s", as: Self.download())
    guard case .finished(let steps) = machine.didEnd("s", outcome: .success(outcome)) else {
      Issue.record("a stream that synced itself is recorded at once")
      return
    }
    #expect(steps == EndDecision.finished(length: 7).steps)
  }

  @Test func aFailureCarriesWhetherBytesCameAndTheHost() {
    var machine = QueueMachine(parallelDownloads: 1)
    var download = Self.download(host: "h.test")
    _ = download.didProgress(OfflineProgress(bytes: 1, total: nil), at: Self.now)
    _ = download.didProgress(OfflineProgress(bytes: 9, total: nil), at: Self.now)
    machine.didLaunch("a", as: download)
    let error = ManagerDecisionTests.error(.status(500, retryAfter: nil))
    guard case .failed(_, let progressed, let host) = machine.didEnd("a", outcome: .failure(error))
    else {
      Issue.record("a failure is decided by didFail")
      return
    }
    #expect(progressed && host == "h.test")
  }

  /// The streak of fresh URLs asked for in a row lives in the machine: two refusals in a
  /// row use up a limit of two, and the third is suspended.
  @Test func refusalsAskForFreshURLsUntilTheStreakIsUsedUp() {
    var machine = QueueMachine(parallelDownloads: 1)
    let hook = URLRefresh(maximumInARow: 2) { $0.url }
    let record = Self.record("a")
    func fail() -> [ManagerStep] {
      let failure = EndDecision.Failure(
        ManagerDecisionTests.error(.status(403, retryAfter: nil)), contentID: "a",
        hostIsUnreachable: false)
      return machine.didFail(
        failure, of: "a", record: record, progressed: false, at: Self.date,
        retry: RetryPolicy(maximumAttempts: 3), refresh: hook)
    }
    #expect(fail() == [.askForFreshURL(403)])
    #expect(fail() == [.askForFreshURL(403)])
    #expect(!fail().contains(.askForFreshURL(403)))
    // Used up, the streak starts over: the next refusal asks again.
    #expect(fail() == [.askForFreshURL(403)])
  }

  @Test func aRefreshAnsweredGoesOnOrGivesUpAndTheContentMayStartAgain() {
    var machine = QueueMachine(parallelDownloads: 1)
    let url = URL(string: "https://a.test/fresh.bin")!
    machine.willAskForFreshURL("a")
    #expect(machine.stopping == ["a"])
    #expect(machine.didRefresh("a", answer: .success(url)) == .goOn(url))
    #expect(machine.stopping.isEmpty)
    machine.willAskForFreshURL("a")
    let answer = machine.didRefresh("a", answer: .failure(URLRefreshProblem("the hook failed")))
    let error = OfflineError(.urlRefreshFailed("the hook failed"), contentID: "a")
    #expect(answer == .gaveUp(EndDecision.refreshFailed(error).steps))
    #expect(machine.stopping.isEmpty)
  }

  // MARK: Stop, reachability, other processes

  @Test func aStopTakesEachRunningDownloadUntilNoneIsLeft() {
    var machine = QueueMachine(parallelDownloads: 3)
    for id in ["b", "a"] { machine.didLaunch(id, as: Self.download()) }
    var stopped: [String] = []
    while let id = machine.nextToStop {
      #expect(machine.startStopping(id) != nil)
      #expect(machine.stopping.contains(id) && machine.freeSlots > 0)
      machine.didStop(id)
      stopped.append(id)
    }
    #expect(stopped == ["a", "b"] && machine.stopping.isEmpty)
    #expect(machine.startStopping("a") == nil)
  }

  @Test func downloadsOnAnUnreachableHostAreStopped() {
    var machine = QueueMachine(parallelDownloads: 3)
    machine.didLaunch("a", as: Self.download(host: "up.test"))
    machine.didLaunch("b", as: Self.download(host: "down.test"))
    #expect(machine.unreachable(isReachable: { $0 != "down.test" }) == ["b"])
  }

  @Test func aURLReplacedElsewhereRestartsItsDownload() {
    var machine = QueueMachine(parallelDownloads: 3)
    machine.didLaunch("a", as: Self.download(url: "https://a.test/1"))
    machine.didLaunch("b", as: Self.download(url: "https://a.test/2"))
    let current = ["a": "https://a.test/1", "b": "https://b.test/new"]
    #expect(machine.replacedURLs(current: current) == ["b"])
  }

  @Test func onlyANewChangeCounterIsFollowed() {
    var machine = QueueMachine(parallelDownloads: 1)
    machine.didBecomeRunner(changeCounter: 4)
    let seen = [4, 5, 5].map { machine.didReadChangeCounter($0) }
    #expect(seen == [false, true, false])
  }

  @Test func changesElsewhereStopCleanAndAnnounceWhatMovedOnce() {
    var machine = QueueMachine(parallelDownloads: 3)
    machine.didLaunch("paused", as: Self.download())
    machine.didLaunch("canceled", as: Self.download())
    machine.didSee(.downloading, of: "watched")
    let states: [String: OfflineState] = [
      "paused": .suspended, "canceled": .canceling, "watched": .downloaded,
    ]
    let changes = machine.didChangeElsewhere(canceling: ["canceled", "idle"], states: states)
    #expect(
      changes == [
        .stopThenFinishCleanup("canceled"), .finishCleanup("idle"), .stop("canceled"),
        .stop("paused"), .announce("canceled", after: .downloading),
        .announce("paused", after: .downloading), .announce("watched", after: .downloading),
      ])
    #expect(machine.knownStates["watched"] == .downloaded)
    // The same states read again are no news.
    #expect(
      machine.didChangeElsewhere(canceling: [], states: states).allSatisfy {
        if case .announce = $0 { return false }
        return true
      })
  }

  @Test func aKeptRateCapAppliesAtTheStartUnlessConfiguredAndLaterWhenChanged() {
    var machine = QueueMachine(parallelDownloads: 1)
    let rate = ByteRate(bytesPerSecond: 1_000)
    #expect(machine.didReadRateLimit("1000", starting: true, configured: false) == .apply(rate))
    #expect(machine.didReadRateLimit("1000", starting: false, configured: false) == .keep)
    #expect(machine.didReadRateLimit("none", starting: false, configured: false) == .apply(nil))
    #expect(machine.didReadRateLimit(nil, starting: false, configured: false) == .keep)
    #expect(machine.didReadRateLimit("2000", starting: true, configured: true) == .keep)
  }
}

extension QueueMachine.Launch {
  fileprivate var id: String {
    switch self {
    case .start(let record, _, _), .wait(_, let record), .cannotStart(let record, _, _): record.id
    }
  }
}
