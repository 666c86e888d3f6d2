/// Reading a `sidx` box from bytes (ISO/IEC 14496-12 §4.2 for boxes, §8.16.3 for `sidx`).
extension SegmentIndex {
  /// Finds the first top-level `sidx` box in `bytes` (the bytes of a Representation's
  /// `indexRange`, or more) and reads it.
  ///
  /// Boxes before it (such as `styp`) are skipped by their size.
  ///
  /// - Throws: `MPDError` (`malformedSegmentIndex`) when there is no `sidx` box, a box is
  ///   truncated, or the version is neither 0 nor 1.
  public static func parse(_ bytes: [UInt8]) throws -> SegmentIndex {
    var reader = BoxReader(bytes: bytes)
    while reader.remaining > 0 {
      let start = reader.position
      guard let size32 = reader.uint32(), let type = reader.uint32() else {
        throw error("A box header at byte \(start) is truncated.")
      }
      var size = UInt64(size32)
      if size32 == 1 {
        guard let large = reader.uint64() else {
          throw error("A 64-bit box size at byte \(start) is truncated.")
        }
        size = large
      } else if size32 == 0 {
        size = UInt64(bytes.count - start)
      }
      let headerLength = UInt64(reader.position - start)
      guard size >= headerLength, size <= UInt64(bytes.count - start) else {
        throw error(
          "The box at byte \(start) says it has \(size) bytes; \(bytes.count - start) are there.")
      }
      let end = start + Int(size)
      if type == 0x7369_6478 {  // "sidx"
        return try body(&reader, end: end, boxOffset: start, boxSize: size)
      }
      reader.position = end
    }
    throw error("The bytes hold no sidx box.")
  }

  private static func body(
    _ reader: inout BoxReader, end: Int, boxOffset: Int, boxSize: UInt64
  ) throws -> SegmentIndex {
    reader.limit = end
    guard let versionAndFlags = reader.uint32(), let referenceID = reader.uint32(),
      let timescale = reader.uint32()
    else { throw error("The sidx box is truncated before its timescale.") }
    let version = UInt8(versionAndFlags >> 24)
    let earliest: UInt64?
    let first: UInt64?
    switch version {
    case 0:
      earliest = reader.uint32().map(UInt64.init)
      first = reader.uint32().map(UInt64.init)
    case 1:
      earliest = reader.uint64()
      first = reader.uint64()
    default:
      throw error("The sidx box has version \(version); only 0 and 1 exist.")
    }
    guard let earliest, let first, reader.uint16() != nil, let count = reader.uint16() else {
      throw error("The sidx box is truncated before its references.")
    }
    guard timescale > 0 else { throw error("The sidx box has a timescale of 0.") }
    guard reader.remaining >= Int(count) * 12 else {
      throw error(
        "The sidx box announces \(count) references and has room for \(reader.remaining / 12).")
    }
    var references: [Reference] = []
    references.reserveCapacity(Int(count))
    for _ in 0..<count {
      guard let typeAndSize = reader.uint32(), let duration = reader.uint32(),
        let sap = reader.uint32()
      else { throw error("A sidx reference is truncated.") }
      references.append(
        Reference(
          isIndex: typeAndSize >> 31 == 1, size: typeAndSize & 0x7FFF_FFFF, duration: duration,
          startsWithSAP: sap >> 31 == 1))
    }
    return SegmentIndex(
      version: version, referenceID: referenceID, timescale: timescale,
      earliestPresentationTime: earliest, firstOffset: first, references: references,
      boxOffset: UInt64(boxOffset), boxSize: boxSize)
  }
}

/// Big-endian reads from a byte array that never go past `limit`.
struct BoxReader {
  /// The bytes.
  let bytes: [UInt8]
  /// The next byte to read.
  var position = 0
  /// One past the last byte that may be read.
  var limit: Int

  init(bytes: [UInt8]) {
    self.bytes = bytes
    self.limit = bytes.count
  }

  /// How many bytes are left before `limit`.
  var remaining: Int { limit - position }

  mutating func uint16() -> UInt16? { read(2).map(UInt16.init) }
  mutating func uint32() -> UInt32? { read(4).map(UInt32.init) }
  mutating func uint64() -> UInt64? { read(8) }

  /// The next `count` bytes as a big-endian number, or nil when fewer are left.
  private mutating func read(_ count: Int) -> UInt64? {
    guard remaining >= count else { return nil }
    var value: UInt64 = 0
    for byte in bytes[position..<position + count] { value = value << 8 | UInt64(byte) }
    position += count
    return value
  }
}
