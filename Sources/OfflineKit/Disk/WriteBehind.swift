import CSystem

/// Starts the write-back of a file's new bytes as they come: every ``step`` bytes, the kernel
/// is asked to begin writing them to the device without waiting (`sync_file_range` with
/// `SYNC_FILE_RANGE_WRITE`), so the disk works while the network does and the `fdatasync`
/// before the rename finds little left to write. For bytes written one after the other from
/// a start offset (a part file, or one range of a segmented download).
struct WriteBehind {
  /// How many written bytes make the kernel start writing them out.
  static let step: Int64 = 8 << 20

  private let descriptor: Int32
  /// Where the bytes not handed to write-back yet start.
  private var start: Int64

  init(descriptor: Int32, from start: Int64) {
    self.descriptor = descriptor
    self.start = start
  }

  /// Notes that the bytes up to `end` are written; starts their write-back once a step of
  /// them has gathered.
  mutating func wrote(upTo end: Int64) {
    guard end - start >= Self.step else { return }
    _ = ok_start_writeback(descriptor, start, end - start)
    start = end
  }

  /// Forgets bytes past `length`, after the file was cut.
  mutating func cut(to length: Int64) {
    start = min(start, length)
  }
}
