#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// How a codec's packets are framed in a container, and which bytes of a packet are the
/// payload proper: what must be equal in the offline copy and the exported file whatever the
/// containers did to the framing.
///
/// - H.264 and HEVC: MPEG-TS carries NAL units behind Annex B start codes, MP4 and Matroska
///   behind length prefixes; muxers may also move or drop access unit delimiters and
///   parameter sets (they live in the `avcC`/`hvcC` header). The payload is each other NAL
///   unit, trailing zero bytes dropped.
/// - AAC: MPEG-TS carries ADTS frames, MP4 and Matroska the raw frame. The payload is the frame
///   without its ADTS header.
/// - Anything else: the whole packet.
enum PayloadFraming: Sendable, Equatable {
  /// H.264 NAL units behind start codes or length prefixes of `lengthSize` bytes (nil: start
  /// codes).
  case h264(lengthSize: Int?)
  /// HEVC NAL units, framed as for H.264.
  case hevc(lengthSize: Int?)
  /// AAC frames, with or without an ADTS header.
  case aac
  /// The packet as it is.
  case whole

  /// The framing of a codec named as libav names it (`h264`, `hevc`, `aac`), from its codec
  /// header (`extradata`): an `avcC` or `hvcC` record means length prefixes.
  init(codec: String, extradata: [UInt8]) {
    switch codec {
    case "h264":
      let isRecord = extradata.count >= 7 && extradata[0] == 1
      self = .h264(lengthSize: isRecord ? Int(extradata[4] & 3) + 1 : nil)
    case "hevc":
      let isRecord = extradata.count >= 23 && extradata[0] == 1
      self = .hevc(lengthSize: isRecord ? Int(extradata[21] & 3) + 1 : nil)
    case "aac": self = .aac
    default: self = .whole
    }
  }

  /// Calls `body` with each part of `packet` that is payload proper, in order.
  func forEachPayloadPart(
    of packet: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer) -> Void
  ) {
    switch self {
    case .h264(let lengthSize):
      forEachNALUnit(of: packet, lengthSize: lengthSize) { unit in
        // 7 SPS, 8 PPS, 9 access unit delimiter, 13 SPS extension.
        if ![7, 8, 9, 13].contains(unit[0] & 0x1F) { body(unit) }
      }
    case .hevc(let lengthSize):
      forEachNALUnit(of: packet, lengthSize: lengthSize) { unit in
        // 32 VPS, 33 SPS, 34 PPS, 35 access unit delimiter.
        if !(32...35).contains((unit[0] >> 1) & 0x3F) { body(unit) }
      }
    case .aac:
      body(UnsafeRawBufferPointer(rebasing: packet[Self.adtsHeaderLength(packet)...]))
    case .whole:
      body(packet)
    }
  }

  /// The length of the ADTS header `packet` starts with (7, or 9 with a CRC), or 0 when it
  /// does not start with one whose frame length is the packet's.
  static func adtsHeaderLength(_ packet: UnsafeRawBufferPointer) -> Int {
    guard packet.count >= 7, packet[0] == 0xFF, packet[1] & 0xF6 == 0xF0 else { return 0 }
    let frameLength =
      (Int(packet[3] & 0x03) << 11) | (Int(packet[4]) << 3) | (Int(packet[5]) >> 5)
    guard frameLength == packet.count else { return 0 }
    return packet[1] & 0x01 == 1 ? 7 : 9
  }

  private func forEachNALUnit(
    of packet: UnsafeRawBufferPointer, lengthSize: Int?,
    _ body: (UnsafeRawBufferPointer) -> Void
  ) {
    let units =
      lengthSize.map { Self.lengthPrefixedUnits(packet, size: $0) }
      ?? Self.annexBUnits(packet)
    for range in units {
      var end = range.upperBound
      while end > range.lowerBound, packet[end - 1] == 0 { end -= 1 }
      if end > range.lowerBound {
        body(UnsafeRawBufferPointer(rebasing: packet[range.lowerBound..<end]))
      }
    }
  }

  /// The NAL units of a packet with `size`-byte big-endian length prefixes.
  static func lengthPrefixedUnits(_ packet: UnsafeRawBufferPointer, size: Int) -> [Range<Int>] {
    var units: [Range<Int>] = []
    var offset = 0
    while offset + size <= packet.count {
      var length = 0
      for index in offset..<offset + size { length = length << 8 | Int(packet[index]) }
      let start = offset + size
      let end = min(start + length, packet.count)
      units.append(start..<end)
      offset = end
    }
    return units
  }

  /// The NAL units of a packet in Annex B byte stream format (start codes `00 00 01`). Finds
  /// each `01` byte with `memchr` (vectorised; a byte scan in Swift took an eighth of an
  /// export's time) and keeps those after two zero bytes.
  static func annexBUnits(_ packet: UnsafeRawBufferPointer) -> [Range<Int>] {
    guard let base = packet.baseAddress, packet.count >= 3 else { return [] }
    var units: [Range<Int>] = []
    var start: Int?
    var index = 2
    let count = packet.count
    while index < count, let found = memchr(base + index, 1, count - index) {
      let one = base.distance(to: UnsafeRawPointer(found))
      if packet[one - 1] == 0, packet[one - 2] == 0 {
        if let start { units.append(start..<(one - 2)) }
        start = one + 1
        index = one + 3
      } else {
        index = one + 1
      }
    }
    if let start, start < count { units.append(start..<count) }
    return units
  }
}
