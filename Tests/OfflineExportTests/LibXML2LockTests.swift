#if canImport(CAVFormat)
  import Foundation
  import TestTiming
  import Testing
  import XMLTree

  @testable import OfflineExport

  /// Pins a crash of the full suite in CI (session 42): "double free or corruption
  /// (fasttop)" while the `.mp4` and `.mkv` cases of one DASH export ran at once. FFmpeg 5.1's
  /// DASH demuxer calls `xmlCleanupParser()` after each manifest it reads, freeing libxml2's
  /// global state under any other parse in the process. Opening an input and parsing XML
  /// (Foundation's `XMLParser`, which reads every MPD and Metalink we download) now both
  /// wait for the one `LibXML2` lock.
  @Suite(.timed) struct LibXML2LockTests {
    /// The lock is held by a plain thread for 300 ms, not across an `await`: the suites
    /// running beside this one wait for it on the concurrency pool's threads, so a holder
    /// that needed the pool to let go would never be let go. Each waiter notes when it got
    /// through; without the lock both are through long before the holder lets go.
    @Test func anInputOpenAndAnXMLParseWaitWhileAnotherIsInLibxml2() async throws {
      let held = DispatchSemaphore(value: 0)
      let releasedAt = Locked<ContinuousClock.Instant?>(nil)
      Thread {
        LibXML2.exclusively {
          held.signal()
          usleep(300_000)
          releasedAt.set(.now)
        }
      }.start()
      held.wait()
      let parsedAt = Locked<ContinuousClock.Instant?>(nil)
      let openedAt = Locked<ContinuousClock.Instant?>(nil)
      Thread {
        _ = try? XMLTreeBuilder.parse(Data("<MPD/>".utf8))
        parsedAt.set(.now)
      }.start()
      Thread {
        // Any path: the open waits for the lock first, then fails (no such file).
        _ = try? InputContainer(
          path: "/nonexistent/offlinekit/index.mpd", options: [:],
          cancellation: CancellationFlag())
        openedAt.set(.now)
      }.start()
      let deadline = ContinuousClock.now + .seconds(30)
      while !(parsedAt.isSet && openedAt.isSet), ContinuousClock.now < deadline {
        try await Task.sleep(for: .milliseconds(20))
      }
      let released = try #require(releasedAt.value)
      let parsed = try #require(parsedAt.value, "the parse went on once the lock was free")
      let opened = try #require(openedAt.value, "the open went on once the lock was free")
      #expect(parsed >= released, "an XML parse ran while another was in libxml2")
      #expect(opened >= released, "an input was opened while another was in libxml2")
    }
  }
#endif
