/// The parameter sets of an H.264 `avcC` or HEVC `hvcC` codec header (ISO/IEC 14496-15,
/// 5.3.3.1 and 8.3.3.1), framed as in-band NAL units with the stream's length prefixes.
///
/// A file's track has one codec header. When a later DASH Period of the same codec was
/// encoded with other parameter sets, its keyframes carry its own in-band, ahead of their
/// slices, so decoders switch at the Period's start (an `avc1`/`hvc1` sample may hold them;
/// ffmpeg and the platforms' decoders take them). ``PayloadFraming`` leaves parameter sets
/// out of the payload digests, so the check after writing is unchanged by them.
enum ParameterSets {
  /// The NAL units of `extradata` for `codec` (`h264`, `hevc`) and the length prefix size
  /// its samples use; nil when it is not such a record.
  static func units(codec: String, extradata: [UInt8]) -> (lengthSize: Int, units: [[UInt8]])? {
    switch codec {
    case "h264": avcUnits(extradata)
    case "hevc": hevcUnits(extradata)
    default: nil
    }
  }

  /// The bytes to put before a keyframe's own: each unit behind a big-endian length of
  /// `lengthSize` bytes.
  static func prefix(_ units: [[UInt8]], lengthSize: Int) -> [UInt8] {
    var bytes: [UInt8] = []
    for unit in units {
      for shift in stride(from: (lengthSize - 1) * 8, through: 0, by: -8) {
        bytes.append(UInt8(truncatingIfNeeded: unit.count >> shift))
      }
      bytes += unit
    }
    return bytes
  }

  private static func avcUnits(_ record: [UInt8]) -> (lengthSize: Int, units: [[UInt8]])? {
    guard record.count >= 7, record[0] == 1 else { return nil }
    var reader = Reader(bytes: record, offset: 5)
    var units: [[UInt8]] = []
    guard let spsCount = reader.byte() else { return nil }
    for _ in 0..<Int(spsCount & 0x1F) {
      guard let unit = reader.unit() else { return nil }
      units.append(unit)
    }
    guard let ppsCount = reader.byte() else { return nil }
    for _ in 0..<Int(ppsCount) {
      guard let unit = reader.unit() else { return nil }
      units.append(unit)
    }
    return (Int(record[4] & 3) + 1, units)
  }

  private static func hevcUnits(_ record: [UInt8]) -> (lengthSize: Int, units: [[UInt8]])? {
    guard record.count >= 23, record[0] == 1 else { return nil }
    var reader = Reader(bytes: record, offset: 22)
    var units: [[UInt8]] = []
    guard let arrays = reader.byte() else { return nil }
    for _ in 0..<Int(arrays) {
      guard reader.byte() != nil, let count = reader.length() else { return nil }
      for _ in 0..<count {
        guard let unit = reader.unit() else { return nil }
        units.append(unit)
      }
    }
    return (Int(record[21] & 3) + 1, units)
  }

  /// Reads a record's bytes front to back; nil past its end.
  private struct Reader {
    var bytes: [UInt8]
    var offset: Int

    mutating func byte() -> UInt8? {
      guard offset < bytes.count else { return nil }
      defer { offset += 1 }
      return bytes[offset]
    }

    mutating func length() -> Int? {
      guard let high = byte(), let low = byte() else { return nil }
      return Int(high) << 8 | Int(low)
    }

    /// A unit behind a 16-bit length.
    mutating func unit() -> [UInt8]? {
      guard let length = length(), offset + length <= bytes.count else { return nil }
      defer { offset += length }
      return Array(bytes[offset..<offset + length])
    }
  }
}
