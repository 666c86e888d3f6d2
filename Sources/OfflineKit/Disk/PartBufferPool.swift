import OfflineLocks

/// The write buffers of ``PartFile``s that closed, kept for the next part to open.
///
/// Each piece of a stream opens a part, and each part had a fresh 128 KiB buffer: an
/// allocation above glibc's threshold for its own mapping, whose pages were faulted in by
/// the first body part copied into it, and given back to the kernel when it was freed (in the
/// profile of a 1000-segment stream: page faults in the body callback's copy, and
/// `malloc_consolidate`, for every piece). A buffer kept here is already mapped. At most
/// ``capacity`` are kept (2 MiB), and only of the default size; a part with another size
/// allocates its own.
///
/// Safe to share: the addresses sit in a ``ReusePool``.
enum PartBufferPool {
  /// The size of the buffers kept.
  static let size = 128 * 1024
  /// The most buffers kept at once.
  static let capacity = 16

  /// The addresses of the buffers kept (each `size` bytes, aligned to 4096).
  private static let free = ReusePool<UInt>(capacity: capacity)

  /// A buffer of `count` bytes aligned to 4096: one kept, when `count` is ``size`` and one is.
  static func take(count: Int) -> UnsafeMutableRawBufferPointer {
    if count == size, let address = free.take(),
      let start = UnsafeMutableRawPointer(bitPattern: address)
    {
      return UnsafeMutableRawBufferPointer(start: start, count: count)
    }
    return .allocate(byteCount: count, alignment: 4096)
  }

  /// Takes `buffer` back (the caller no longer touches it): kept when there is room and it is
  /// of ``size``, else deallocated.
  static func give(_ buffer: UnsafeMutableRawBufferPointer) {
    if buffer.count == size, let start = buffer.baseAddress,
      free.give(UInt(bitPattern: start))
    {
      return
    }
    buffer.deallocate()
  }
}
