import CSystem
import Foundation

/// Ties this process's life to the `offline` process that waits for it: if that process is
/// killed (even with SIGKILL), the kernel kills this one too, so no exporter runs on unseen
/// and its temporary file is never renamed into place by a run nobody waits for.
enum ParentWatch {
  /// Asks for SIGKILL when the parent ends, then checks that the parent is still `parent`
  /// (one that ended before the request took effect made another process this one's parent).
  /// False when it is not: the caller should end at once.
  static func endsWithParent(_ parent: Int32) -> Bool {
    // Where the kernel has no parent-death signal (not Linux), only the check is done.
    _ = ok_set_parent_death_signal(SIGKILL)
    return getppid() == parent
  }
}
