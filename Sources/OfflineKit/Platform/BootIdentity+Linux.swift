#if os(Linux)
  import Foundation

  extension BootIdentity {
    /// The kernel's random boot id, new at every boot.
    static func readCurrent() -> String? {
      try? String(contentsOfFile: "/proc/sys/kernel/random/boot_id", encoding: .utf8)
    }
  }
#endif
