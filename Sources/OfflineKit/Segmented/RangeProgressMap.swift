import Foundation

/// The live progress of a segmented download's ranges, in a small file beside the part
/// (`<part>.ranges`) mapped into memory: each write's new position is one store to memory,
/// no system call, and it survives a crash of the process (the kernel keeps the mapped
/// pages). Within one boot it is the truth; after a reboot the journal's fsynced ranges are.
///
/// Layout: a header (magic, count) and up to ``capacity`` slots of (start, end, next), all
/// little-endian `Int64`. Not thread-safe: ``RangeBoard`` writes it under its lock.
final class RangeProgressMap {
  static let capacity = 256
  private static let magic: Int64 = 0x4F4B_524E_4745_0001  // "OKRNGE" v1
  private static let headerSlots = 2
  private let descriptor: Int32
  private let base: UnsafeMutablePointer<Int64>
  private let byteCount: Int

  /// Maps `path`, creating it; nil when it cannot be made (the journal alone is used then).
  init?(path: String) {
    byteCount = (Self.headerSlots + 3 * Self.capacity) * MemoryLayout<Int64>.size
    let fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o644)
    guard fd >= 0 else { return nil }
    var info = stat()
    guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG,
      info.st_size == byteCount || ftruncate(fd, off_t(byteCount)) == 0,
      let mapped = mmap(nil, byteCount, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0),
      mapped != MAP_FAILED
    else {
      close(fd)
      return nil
    }
    descriptor = fd
    base = mapped.bindMemory(to: Int64.self, capacity: byteCount / 8)
  }

  deinit {
    munmap(base, byteCount)
    close(descriptor)
  }

  /// The ranges recorded, or nil when the file holds none (new, or another format).
  func read() -> [(start: Int64, end: Int64, next: Int64)]? {
    guard base[0] == Self.magic, base[1] > 0, base[1] <= Int64(Self.capacity) else { return nil }
    return (0..<Int(base[1])).map { slot in
      let at = Self.headerSlots + 3 * slot
      return (base[at], base[at + 1], base[at + 2])
    }
  }

  /// Records `slot`; slots past ``capacity`` are not recorded (the journal still has them).
  func store(slot: Int, start: Int64, end: Int64, next: Int64) {
    guard slot < Self.capacity else { return }
    let at = Self.headerSlots + 3 * slot
    base[at] = start
    base[at + 1] = end
    base[at + 2] = next
    if Int64(slot) >= base[1] { base[1] = Int64(slot) + 1 }
    base[0] = Self.magic
  }

  /// Forgets every slot (before a new plan is stored).
  func clear() {
    base[1] = 0
  }
}
