#if os(Linux)
  import Foundation

  extension LockHolder {
    /// The holder of the exclusive flock on the file open at `descriptor`, nil when none is
    /// listed (it ended meanwhile, or `/proc` is not mounted).
    static func find(lockedFile descriptor: Int32, procRoot: String = "/proc") -> LockHolder? {
      var info = stat()
      guard fstat(descriptor, &info) == 0,
        let table = try? String(contentsOfFile: procRoot + "/locks", encoding: .utf8)
      else { return nil }
      let device = UInt64(info.st_dev)
      let major = ((device >> 8) & 0xfff) | ((device >> 32) & ~0xfff)
      let minor = (device & 0xff) | ((device >> 12) & ~0xff)
      let wanted = String(format: "%02x:%02x:%llu", major, minor, UInt64(info.st_ino))
      for line in table.split(separator: "\n") {
        // "1: FLOCK  ADVISORY  WRITE 4242 08:01:1234567 0 EOF"
        let fields = line.split(separator: " ", omittingEmptySubsequences: true)
        guard fields.count >= 6, fields[1] == "FLOCK", fields[5] == wanted,
          let pid = Int32(fields[4]), pid > 0
        else { continue }
        return LockHolder(processID: pid, command: command(of: pid, procRoot: procRoot))
      }
      return nil
    }

    /// The program's name and its first three arguments, from `/proc/<pid>/cmdline`.
    private static func command(of pid: Int32, procRoot: String) -> String? {
      guard let data = FileManager.default.contents(atPath: "\(procRoot)/\(pid)/cmdline") else {
        return nil
      }
      let words = data.split(separator: 0).prefix(4).map {
        String(decoding: $0, as: UTF8.self)
      }
      guard let program = words.first else { return nil }
      let name = (program as NSString).lastPathComponent
      let text = ([name] + words.dropFirst()).joined(separator: " ")
      return String(text.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F }.prefix(80))
    }
  }
#endif
