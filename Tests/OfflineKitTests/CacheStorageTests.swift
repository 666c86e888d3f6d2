import Foundation
import TestSupport
import TestTiming
import Testing

@testable import OfflineKit

/// The storage policy: free space, a quota for the whole store, and a disk that fills up.
@Suite(.serialized, .timed) struct CacheStorageTests {
  @Test func tooLittleFreeSpaceIsRefusedBeforeAnyRequest() async throws {
    let fixture = try CacheFixture(files: ["a.bin": 1_000])
    let cache = try fixture.cache { $0.minimumFreeSpace = Int64.max / 2 }
    do {
      _ = try await cache.data(for: fixture.url("a.bin"))
      Issue.record("a download was allowed")
    } catch {
      guard case .insufficientSpace = error.kind else {
        Issue.record("unexpected \(error)")
        return
      }
      #expect(error.isStorageFull)
    }
    #expect(try await fixture.requests().isEmpty)
  }

  @Test func aQuotaFilledByOfflineContentRefusesTheCache() async throws {
    let fixture = try CacheFixture(files: ["movie.bin": 300_000, "thumb.bin": 50_000])
    let manager = try OfflineManager(
      directory: fixture.store, configuration: ManagerFixture.configuration())
    _ = try await manager.add([OfflineSource(url: fixture.url("movie.bin"))])
    #expect(try await runUntilIdle(manager))
    let cache = try fixture.cache { $0.storeQuota = 320_000 }
    do {
      _ = try await cache.data(for: fixture.url("thumb.bin"))
      Issue.record("the quota was exceeded")
    } catch {
      guard case .quotaExceeded(let quota, _, let pinned) = error.kind else {
        Issue.record("unexpected \(error)")
        return
      }
      #expect(quota == 320_000)
      #expect(pinned == 300_000)
    }
    #expect(try await cache.entries().isEmpty)
  }

  @Test func theManagerWaitsForStorageWhenTheStoreIsOverItsQuota() async throws {
    let fixture = try CacheFixture(files: ["cached.bin": 200_000, "movie.bin": 100_000])
    _ = try await fixture.cache().data(for: fixture.url("cached.bin"))
    var configuration = ManagerFixture.configuration()
    configuration.storeQuota = 150_000
    let manager = try OfflineManager(directory: fixture.store, configuration: configuration)
    let content = try await manager.add([OfflineSource(url: fixture.url("movie.bin"))])[0]
    try await manager.start()
    let waited = await eventually(timeout: .seconds(5)) {
      (try? await content.snapshot.waitReason) == .storage
    }
    await manager.stop(suspendingRunning: false)

    #expect(waited)
    #expect(try await content.state == .downloading)
  }

  /// A store on a 4 MiB tmpfs and a 6 MiB file: the disk fills up mid-download.
  @Test(.enabled(if: getuid() == 0))
  func aFullDiskGivesAStorageErrorAndNoCorruptEntry() async throws {
    let fixture = try CacheFixture(files: ["big.bin": 6 << 20, "small.bin": 10_000])
    let mount = try await TmpfsMount(at: fixture.store, megabytes: 4)
    defer { mount.unmount() }
    let cache = try fixture.cache()
    var failure: FileCache.Error?
    do {
      _ = try await cache.fileURL(for: fixture.url("big.bin"))
    } catch {
      failure = error
    }
    let error = try #require(failure)
    #expect(error.isStorageFull, "\(error)")
    #expect("\(error)".contains("space"), "\(error)")
    #expect(try await cache.entries().isEmpty)
    let files = try FileManager.default.subpathsOfDirectory(
      atPath: fixture.store.appending(path: "cache").path)
    #expect(!files.contains { $0.count == 67 && !$0.hasSuffix(".part") }, "\(files)")

    // Clearing removes the partial download; the cache works again.
    try await cache.removeAll()
    let small = try await cache.data(for: fixture.url("small.bin"))
    #expect(small.value == fixture.body("small.bin", size: 10_000))
  }
}

/// A tmpfs mounted for one test (as root); unmount it even when the test fails.
struct TmpfsMount {
  let path: URL

  init(at path: URL, megabytes: Int) async throws {
    try FileManager.default.createDirectory(at: path, withIntermediateDirectories: true)
    let result = try await ProcessRunner.run(
      "/bin/mount", ["-t", "tmpfs", "-o", "size=\(megabytes)m", "tmpfs", path.path], timeout: 10)
    try #require(result.status == 0, "mount failed: \(result.stderrText)")
    self.path = path
  }

  /// Detaches the mount at once (`umount -l`), with the system call rather than a child
  /// process, so a `defer` can call it without blocking on one.
  func unmount() {
    _ = umount2(path.path, Int32(MNT_DETACH))
  }
}
