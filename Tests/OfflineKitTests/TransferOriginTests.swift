import Foundation
import OfflineHTTP
import OfflineStore
import TestSupport
import TestTiming
import Testing

@testable import OfflineKit

/// Whole transfers from a real nginx: what a user of `offline get` sees.
@Suite(.timed) struct TransferOriginTests {
  let size = 8 << 20

  /// nginx serving `file.bin` from a folder that lives as long as the origin.
  struct Origin {
    let root: TemporaryDirectory
    let nginx: NginxServer
    let body: Data

    func url(_ path: String) -> URL { nginx.url(path) }
    func accessLog(minimumCount: Int) async throws -> [AccessLogEntry] {
      try await nginx.accessLog(minimumCount: minimumCount)
    }
  }

  /// Starts nginx off the concurrency pool (see `offPool`).
  func origin(_ options: NginxServer.Options = .init()) async throws -> Origin {
    let size = size
    return try await offPool {
      let root = try TemporaryDirectory(prefix: "offlinekit-www")
      let body = TestData.bytes(count: size, seed: 3)
      try body.write(to: root.file("file.bin"))
      let nginx = try NginxServer(root: root.url, options: options)
      try nginx.start()
      return Origin(root: root, nginx: nginx, body: body)
    }
  }

  /// Pins a leak: the sink and its progress reporter held each other, so every finished
  /// transfer kept its part file open (and its buffer allocated) until the process ended;
  /// a stream of thousands of segments would have run out of descriptors.
  @Test func finishedTransfersLeaveNoDescriptorOpen() async throws {
    let nginx = try await origin()
    try TestData.bytes(count: 10_000, seed: 4).write(to: nginx.root.file("small.bin"))
    let fixture = try TransferFixture()
    // Only the descriptors open on this fixture's files: the process's whole count took in
    // those of the suites running beside this one (86 against 57 allowed, six at a time).
    let folder = URL(fileURLWithPath: fixture.destination("small-0.bin"))
      .deletingLastPathComponent().resolvingSymlinksInPath().path
    func openDescriptors() -> Int {
      let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
      return names.filter { name in
        let target = try? FileManager.default.destinationOfSymbolicLink(
          atPath: "/proc/self/fd/" + name)
        return target?.hasPrefix(folder + "/") ?? false
      }.count
    }
    let before = openDescriptors()
    for index in 0..<40 {
      _ = try await fixture.transfer(
        nginx.url("/small.bin"), to: fixture.destination("small-\(index).bin")
      ).run()
    }
    // The network thread frees the last call a moment after `run()` returns: wait for it.
    for _ in 0..<40 where openDescriptors() > before + 5 {
      try await Task.sleep(for: .milliseconds(50))
    }
    #expect(openDescriptors() <= before + 5, "before: \(before)")
  }

  @Test func downloadsAFileByteIdenticalAndRecordsItComplete() async throws {
    let nginx = try await origin()
    let body = nginx.body
    let fixture = try TransferFixture()
    let sha = try await TestData.sha256Hex(of: body)
    let log = EventLog()
    let outcome = try await fixture.transfer(
      nginx.url("/file.bin"), configuration: .quick { $0 = $0.expecting(sha256: sha) }
    ).run(onEvent: log.record)

    #expect(fileData(outcome.destination) == body)
    #expect(outcome.sha256 == sha)
    #expect(!FileManager.default.fileExists(atPath: outcome.destination + ".part"))
    let record = try #require(
      try fixture.index.transfers.record(forDestination: outcome.destination))
    #expect(record.phase == .complete)
    #expect(record.totalLength == Int64(size))
    #expect(record.sha256 == sha)
    let progress = log.progressBytes
    #expect(progress == progress.sorted(), "progress moved backwards")
  }

  @Test func aCompleteFileIsNotDownloadedAgain() async throws {
    let nginx = try await origin()
    let fixture = try TransferFixture()
    _ = try await fixture.transfer(nginx.url("/file.bin")).run()
    let again = try await fixture.transfer(nginx.url("/file.bin")).run()

    #expect(again.wasAlreadyComplete)
    #expect(try await nginx.accessLog(minimumCount: 1).count == 1)
  }

  @Test func aCompleteFileChangedOnDiskIsDownloadedAgain() async throws {
    let nginx = try await origin()
    let body = nginx.body
    let fixture = try TransferFixture()
    let first = try await fixture.transfer(nginx.url("/file.bin")).run()
    try Data("tampered".utf8).write(to: URL(fileURLWithPath: first.destination))
    let again = try await fixture.transfer(nginx.url("/file.bin")).run()

    #expect(!again.wasAlreadyComplete)
    #expect(fileData(again.destination) == body)
  }

  @Test func aWrongChecksumIsNeverPassedOffAsComplete() async throws {
    let nginx = try await origin()
    let fixture = try TransferFixture()
    let wrong = String(repeating: "0", count: 64)
    do {
      _ = try await fixture.transfer(
        nginx.url("/file.bin"), configuration: .quick { $0 = $0.expecting(sha256: wrong) }
      ).run()
      Issue.record("a wrong checksum was accepted")
    } catch {
      guard case .checksumMismatch(let expected, _) = error.kind else {
        Issue.record("unexpected \(error)")
        return
      }
      #expect(expected == wrong)
    }
    #expect(!FileManager.default.fileExists(atPath: fixture.destination()))
    #expect(FileSteps.regularFileSize(fixture.destination() + ".part") ?? 0 == 0)
    #expect(try fixture.index.transfers.record(forDestination: fixture.destination()) == nil)
  }

  @Test func aStopMidwayKeepsThePartAndTheNextRunResumesIt() async throws {
    let nginx = try await origin(.init(limitRate: "4m"))
    let body = nginx.body
    let fixture = try TransferFixture()
    let url = nginx.url("/file.bin")
    let stop = try await fixture.cancelMidway(url)
    guard case .canceled = stop?.kind else {
      Issue.record("the transfer did not stop as cancelled: \(String(describing: stop))")
      return
    }
    let kept = try #require(FileSteps.regularFileSize(fixture.destination() + ".part"))
    #expect(kept > 0)

    let log = EventLog()
    let outcome = try await fixture.transfer(url).run(onEvent: log.record)
    #expect(fileData(outcome.destination) == body)
    #expect(log.requestedOffsets.first == kept)
    let resumed = try await nginx.accessLog(minimumCount: 2).last
    #expect(resumed?.status == 206)
    #expect(resumed?.ifRange != nil)
  }

  @Test func nginxIgnoringRangesGivesACleanRestart() async throws {
    let nginx = try await origin(.init(maxRanges: 0, limitRate: "4m"))
    let body = nginx.body
    let fixture = try TransferFixture()
    let url = nginx.url("/file.bin")
    _ = try await fixture.cancelMidway(url)
    #expect((FileSteps.regularFileSize(fixture.destination() + ".part") ?? 0) > 0)

    let log = EventLog()
    let outcome = try await fixture.transfer(url).run(onEvent: log.record)

    #expect(fileData(outcome.destination) == body)
    #expect(log.restartReasons == [.rangesIgnored])
    let second = try await nginx.accessLog(minimumCount: 2).last
    #expect(second?.range != nil)
    #expect(second?.status == 200)
  }

  @Test func aRedirectToAnotherSchemeIsRefused() async throws {
    let nginx = try await origin(
      .init(extraLocations: "location = /go { return 302 ftp://127.0.0.1/file.bin; }"))
    let fixture = try TransferFixture()
    do {
      _ = try await fixture.transfer(nginx.url("/go")).run()
      Issue.record("followed a redirect to ftp")
    } catch {
      guard case .network(let http) = error.kind, case .redirectRefused = http.kind else {
        Issue.record("unexpected \(error)")
        return
      }
    }
    #expect(!FileManager.default.fileExists(atPath: fixture.destination()))
  }

  @Test func aFileOfflineKitDidNotWriteIsNotReplaced() async throws {
    let nginx = try await origin()
    let body = nginx.body
    let fixture = try TransferFixture()
    let destination = fixture.destination()
    try FileManager.default.createDirectory(
      atPath: (destination as NSString).deletingLastPathComponent, withIntermediateDirectories: true
    )
    try Data("mine".utf8).write(to: URL(fileURLWithPath: destination))
    await #expect(throws: Transfer.Error.self) {
      try await fixture.transfer(nginx.url("/file.bin")).run()
    }
    #expect(fileData(destination) == Data("mine".utf8))

    let replaced = try await fixture.transfer(
      nginx.url("/file.bin"), configuration: .quick { $0.replacesExistingFile = true }
    ).run()
    #expect(fileData(replaced.destination) == body)
  }

  @Test func aSymlinkPlantedAtThePartIsNeverFollowed() async throws {
    let nginx = try await origin()
    let fixture = try TransferFixture()
    let victim = fixture.folder.file("victim.txt").path
    try Data("precious".utf8).write(to: URL(fileURLWithPath: victim))
    let destination = fixture.destination()
    try FileManager.default.createDirectory(
      atPath: (destination as NSString).deletingLastPathComponent, withIntermediateDirectories: true
    )
    try FileManager.default.createSymbolicLink(
      atPath: destination + ".part", withDestinationPath: victim)

    do {
      _ = try await fixture.transfer(nginx.url("/file.bin")).run()
      Issue.record("wrote through a symlink")
    } catch {
      guard case .file(let fileError) = error.kind else {
        Issue.record("unexpected \(error)")
        return
      }
      #expect(fileError.operation == .open)
    }
    #expect(fileData(victim) == Data("precious".utf8))
  }

  @Test func aCrashBetweenRenameAndJournalIsFinishedOnTheNextRun() async throws {
    let nginx = try await origin()
    let body = nginx.body
    let fixture = try TransferFixture()
    let first = try await fixture.transfer(nginx.url("/file.bin")).run()
    var record = try #require(try fixture.index.transfers.record(forDestination: first.destination))
    record.phase = .finishing
    try fixture.index.transfers.save(record)

    let again = try await fixture.transfer(nginx.url("/file.bin")).run()

    #expect(again.wasAlreadyComplete)
    #expect(fileData(again.destination) == body)
    #expect(
      try fixture.index.transfers.record(forDestination: first.destination)?.phase == .complete)
  }
}
