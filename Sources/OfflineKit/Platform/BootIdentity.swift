import Foundation

/// Tells whether the kernel has restarted since a part file was written.
///
/// Bytes a process wrote survive its crash (they are in the kernel's page cache), so within one
/// boot a part file's length is the truth. Across a reboot only bytes that were fsynced are
/// sure, so the journal's durable offset is the truth then.
enum BootIdentity {
  /// This boot's identifier, or nil where the system does not expose one.
  static let current: String? = {
    guard
      let text = try? String(contentsOfFile: "/proc/sys/kernel/random/boot_id", encoding: .utf8)
    else { return nil }
    let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
    return trimmed.isEmpty ? nil : trimmed
  }()
}
