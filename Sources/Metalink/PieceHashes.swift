/// The hashes of a file's consecutive pieces of equal length, the last one shorter when the
/// length does not divide the size (`pieces`, RFC 5854 §4.2.11), so a bad piece can be fetched
/// again alone.
///
/// ```swift
/// let pieces = file.pieces[0]            // 4 MiB pieces of a 10 MiB file: 3 pieces
/// pieces.piece(containing: 9_000_000)    // 2
/// pieces.byteRange(ofPiece: 2)           // 8_388_608..<10_485_760
/// ```
public struct PieceHashes: Sendable, Hashable {
  /// The hash function of every piece.
  public var algorithm: HashAlgorithm
  /// The length of every piece but the last, in bytes; at least 1.
  public var length: UInt64
  /// The digest of each piece, in file order; each has the function's digest length.
  public var hashes: [[UInt8]]
  /// The file's size, when known: it ends the last piece. Without it, every piece is taken to
  /// be `length` long and the caller clamps the last to what the servers report.
  public var fileSize: UInt64?

  /// Creates piece hashes; `length` must be at least 1.
  public init(algorithm: HashAlgorithm, length: UInt64, hashes: [[UInt8]], fileSize: UInt64?) {
    self.algorithm = algorithm
    self.length = max(1, length)
    self.hashes = hashes
    self.fileSize = fileSize
  }

  /// How many pieces there are.
  public var count: Int { hashes.count }

  /// How many pieces a file of `size` bytes has in pieces of `length`: ceil(size / length).
  public static func expectedCount(size: UInt64, length: UInt64) -> UInt64 {
    guard length > 0 else { return 0 }
    return size / length + (size % length == 0 ? 0 : 1)
  }

  /// The index of the piece that holds the byte at `offset`, or nil when the offset is past
  /// the last piece (or past the file's size, when known).
  public func piece(containing offset: UInt64) -> Int? {
    if let fileSize, offset >= fileSize { return nil }
    let index = offset / length
    guard index < UInt64(hashes.count) else { return nil }
    return Int(index)
  }

  /// The bytes piece `index` covers, or nil when there is no such piece.
  public func byteRange(ofPiece index: Int) -> Range<UInt64>? {
    guard hashes.indices.contains(index) else { return nil }
    let (start, overflow) = UInt64(index).multipliedReportingOverflow(by: length)
    guard !overflow else { return nil }
    let (end, endOverflow) = start.addingReportingOverflow(length)
    var upper = endOverflow ? UInt64.max : end
    if let fileSize { upper = min(upper, fileSize) }
    guard start <= upper else { return nil }
    return start..<upper
  }

  /// The digest piece `index` must have, or nil when there is no such piece.
  public func checksum(ofPiece index: Int) -> Checksum? {
    guard hashes.indices.contains(index) else { return nil }
    return Checksum(algorithm, bytes: hashes[index])
  }
}
