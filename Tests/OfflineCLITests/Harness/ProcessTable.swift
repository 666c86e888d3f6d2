import Foundation

/// What `/proc` says of other processes: a process's children, and whether one has ended.
/// The export tests use it to find the `offline-export` that an `offline` process started.
enum ProcessTable {
  /// The ids of the processes whose parent is `parent`, lowest first.
  static func children(of parent: Int32) -> [Int32] {
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
    return entries.compactMap(Int32.init).filter { stat($0)?.parent == parent }.sorted()
  }

  /// Whether process `pid` is gone or a zombie (ended, not yet reaped).
  static func hasEnded(_ pid: Int32) -> Bool {
    guard let state = stat(pid)?.state else { return true }
    return state == "Z" || state == "X"
  }

  /// The state letter and parent id in `/proc/PID/stat` (`PID (NAME) STATE PPID ...`; the
  /// name, in parentheses, may hold spaces and parentheses), nil when there is no such process.
  private static func stat(_ pid: Int32) -> (state: Character, parent: Int32)? {
    guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
      let close = text.lastIndex(of: ")")
    else { return nil }
    let fields = text[text.index(after: close)...].split(separator: " ")
    guard fields.count >= 2, let state = fields[0].first, let parent = Int32(fields[1]) else {
      return nil
    }
    return (state, parent)
  }
}
