import Foundation

extension TransferSink {
  /// Feeds the first `length` bytes of the part to the file's hasher and its chunk hasher in
  /// one read: the bytes an earlier run wrote, before a resume appends to them.
  func primeHashes(length: Int64) throws(TransferFileError) {
    guard hasher != nil || chunks != nil else { return }
    let blockSize = 1 << 20
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: blockSize, alignment: 16)
    defer { buffer.deallocate() }
    var position: Int64 = 0
    while position < length {
      let want = Int(min(Int64(blockSize), length - position))
      let got = pread(part.descriptor, buffer.baseAddress, want, off_t(position))
      if got < 0, errno == EINTR { continue }
      guard got > 0 else { throw TransferFileError(.read, errno: got < 0 ? errno : EIO) }
      let bytes = UnsafeRawBufferPointer(rebasing: buffer[0..<got])
      hasher?.update(bytes)
      chunks?.update(bytes, at: position)
      position += Int64(got)
    }
  }

  /// The chunk digests of the finished part of `length` bytes (chunks not seen whole while
  /// streaming are hashed from the part now); nil when this transfer does not hash chunks.
  func chunkDigests(length: Int64) throws(TransferFileError) -> [String]? {
    guard let chunks else { return nil }
    chunks.finish(atLength: length)
    return try chunks.digests.complete(fromFile: part.descriptor, length: length)
  }
}
