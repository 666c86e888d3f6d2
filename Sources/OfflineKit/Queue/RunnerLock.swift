import Foundation

/// The lock that makes one process the runner of a store's queue: an exclusive `flock` on
/// `runner.lock` in the store's directory. The kernel releases it when the holder exits, even
/// on SIGKILL, so a crashed runner never blocks the next one.
///
/// The runner downloads and finishes cancels; other processes change states in the index,
/// and the runner notices within its poll interval.
final class RunnerLock: Sendable {
  private let descriptor: Int32

  /// Takes the lock, trying for at most `patience`; nil when another process holds it.
  ///
  /// Commands that are not the runner take it for a few milliseconds (to finish a cancel
  /// or a crash's leftovers), so a runner waits a little instead of failing at once.
  init?(directory: URL, patience: Duration = .zero) {
    let path = directory.appending(path: "runner.lock").path
    let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
    guard fd >= 0 else { return nil }
    let deadline = ContinuousClock.now + patience
    while flock(fd, LOCK_EX | LOCK_NB) != 0 {
      guard ContinuousClock.now < deadline else {
        close(fd)
        return nil
      }
      usleep(20_000)
    }
    descriptor = fd
    let pid = "\(getpid())\n"
    _ = ftruncate(fd, 0)
    _ = pid.withCString { pwrite(fd, $0, strlen($0), 0) }
  }

  deinit {
    flock(descriptor, LOCK_UN)
    close(descriptor)
  }

  /// The process id written by the current holder, if any.
  static func holder(in directory: URL) -> String? {
    let path = directory.appending(path: "runner.lock").path
    guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
    let pid = text.trimmingCharacters(in: .whitespacesAndNewlines)
    return pid.isEmpty ? nil : pid
  }
}
