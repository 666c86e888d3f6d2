import Foundation

extension TransferSink {
  /// Tells the hashes that the part holds `length` bytes from before this request (what an
  /// earlier run wrote, before a resume appends to them): they are read back and hashed
  /// behind the writer, while the request goes out. Nothing happens for bytes already noted.
  func primeHashes(length: Int64) throws(TransferFileError) {
    try hashes.found(upTo: length)
  }

  /// The file's SHA-256 and chunk digests once the part holds exactly `length` bytes: every
  /// byte is hashed (what the worker has not reached yet, on this thread), and chunks not
  /// seen whole are hashed from the part now. Nil for what this transfer does not compute.
  func finishHashes(length: Int64) throws(TransferFileError) -> (
    sha256: String?, chunks: [String]?
  ) {
    try hashes.found(upTo: length)
    try hashes.finish()
    hashes.recordFirstChunk(atLength: length)
    let sha = hashes.whole?.finalizeHex()
    guard let chunks = hashes.chunks else { return (sha, nil) }
    chunks.finish(atLength: length)
    return (sha, try chunks.digests.complete(fromFile: part.descriptor, length: length))
  }
}
