import Foundation

/// Tells whether the kernel has restarted since a part file was written.
///
/// Bytes a process wrote survive its crash (they are in the kernel's page cache), so within one
/// boot a part file's length is the truth. Across a reboot only bytes that were fsynced are
/// sure, so the journal's durable offset is the truth then. Where the value comes from is
/// the platform's: `BootIdentity+Linux.swift`, `BootIdentity+Darwin.swift`.
enum BootIdentity {
  /// This boot's identifier, or nil where the system does not expose one (then every start
  /// counts as after a reboot: only fsynced bytes are trusted).
  static let current: String? = {
    guard let text = readCurrent() else { return nil }
    let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
    return trimmed.isEmpty ? nil : trimmed
  }()
}
