import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Writes a file's data to disk (`fsync`) on a thread of its own, so that the wait overlaps
/// the check that reads the file back (from the page cache). ``DestinationFile/commit()``
/// flushes again, which is quick once this is done, and reports any error.
final class BackgroundFlush: Sendable {
  private let done = DispatchSemaphore(value: 0)

  /// Starts flushing the file at `path`.
  init(path: String) {
    let done = self.done
    let thread = Thread {
      let descriptor = open(path, O_RDONLY | O_CLOEXEC)
      if descriptor >= 0 {
        fsync(descriptor)
        close(descriptor)
      }
      done.signal()
    }
    thread.name = "OfflineExport flush"
    thread.start()
  }

  /// Waits until the flush is over.
  func wait() { done.wait() }
}
