import Foundation

/// The one lock over libxml2's process-wide state, for every parser in the process that
/// uses it: Foundation's `XMLParser` (``XMLTreeBuilder``) and libavformat's DASH demuxer
/// (`OfflineExport` opens an MPD under it).
///
/// FFmpeg 5.1's DASH demuxer calls `xmlCleanupParser()` after reading each manifest, which
/// frees libxml2's global state while a parse in another thread may be using it (libxml2's
/// own documentation says a library must never call it). Two DASH exports opened at once
/// in one process (the test suite's `.mp4` and `.mkv` cases of one export) crashed it with
/// "double free or corruption (fasttop)"; an export beside a download reading an MPD or a
/// Metalink could do the same. Every such user takes this lock for as long as it is in
/// libxml2, so none runs while another cleans up.
package enum LibXML2 {
  private static let lock = NSLock()

  /// Runs `body` holding the lock; `body` must not take it again.
  package static func exclusively<Value, Failure: Error>(
    _ body: () throws(Failure) -> Value
  ) throws(Failure) -> Value {
    lock.lock()
    defer { lock.unlock() }
    return try body()
  }
}
