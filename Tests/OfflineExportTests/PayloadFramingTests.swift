import TestTiming
import Testing

@testable import OfflineExport

/// What counts as a packet's payload whatever its container's framing.
@Suite(.timed) struct PayloadFramingTests {
  private let sps: [UInt8] = [0x67, 0x42, 0xC0, 0x0D]
  private let pps: [UInt8] = [0x68, 0xCE, 0x3C, 0x80]
  private let delimiter: [UInt8] = [0x09, 0xF0]
  private let slice: [UInt8] = [0x65, 0x88, 0x84, 0x00, 0x21, 0xFF]
  private let sei: [UInt8] = [0x06, 0x05, 0x01, 0x80]

  private func parts(_ packet: [UInt8], _ framing: PayloadFraming) -> [[UInt8]] {
    var found: [[UInt8]] = []
    packet.withUnsafeBytes { bytes in
      framing.forEachPayloadPart(of: bytes) { found.append(Array($0)) }
    }
    return found
  }

  @Test func annexBAndLengthPrefixedH264HaveTheSamePayload() {
    let annexB =
      [0, 0, 0, 1] + delimiter + [0, 0, 0, 1] + sps + [0, 0, 1] + pps + [0, 0, 1]
      + sei + [0, 0, 0, 1] + slice
    let prefixed = [0, 0, 0, UInt8(sei.count)] + sei + [0, 0, 0, UInt8(slice.count)] + slice
    #expect(parts(annexB, .h264(lengthSize: nil)) == [sei, slice])
    #expect(parts(prefixed, .h264(lengthSize: 4)) == [sei, slice])
  }

  @Test func framingComesFromTheCodecHeader() {
    let avcC: [UInt8] = [1, 0x42, 0xC0, 0x0D, 0xFF, 0xE1, 0x00]
    #expect(PayloadFraming(codec: "h264", extradata: avcC) == .h264(lengthSize: 4))
    #expect(PayloadFraming(codec: "h264", extradata: [0, 0, 0, 1] + sps) == .h264(lengthSize: nil))
    #expect(PayloadFraming(codec: "aac", extradata: []) == .aac)
    #expect(PayloadFraming(codec: "mp3", extradata: []) == .whole)
  }

  @Test func adtsHeaderIsNotPayload() {
    let raw: [UInt8] = [0x21, 0x10, 0x04, 0x60, 0x8C, 0x1C]
    let length = 7 + raw.count
    let header: [UInt8] = [
      0xFF, 0xF1, 0x50, 0x80 | UInt8(length >> 11), UInt8((length >> 3) & 0xFF),
      UInt8((length & 7) << 5) | 0x1F, 0xFC,
    ]
    #expect(parts(header + raw, .aac) == [raw])
    #expect(parts(raw, .aac) == [raw])
  }

  @Test func changedSliceByteChangesThePayload() {
    var changed = slice
    changed[3] ^= 0x01
    #expect(
      parts([0, 0, 1] + slice, .h264(lengthSize: nil))
        != parts([0, 0, 1] + changed, .h264(lengthSize: nil)))
  }
}

/// The timeline check that holds for containers storing presentation times only.
@Suite(.timed) struct PresentationOrderTests {
  private func check(_ times: [Int64]) -> Bool {
    var order = PresentationOrder(depth: 4)
    var fits = true
    for time in times where !order.add(time) { fits = false }
    return order.finish() && fits
  }

  @Test func reorderedFramesPass() {
    // Decode order of I P B B P B B: presentation times 0 3 1 2 6 4 5.
    #expect(check([0, 3, 1, 2, 6, 4, 5]))
  }

  @Test func frameFromFurtherBackThanTheReorderDepthFails() {
    // A frame presented at 1 after the frames up to 8 were read cannot fit.
    #expect(!check([0, 3, 2, 6, 5, 8, 7, 1, 9]))
  }

  @Test func repeatedTimeFails() {
    #expect(!check([0, 1, 1, 2]))
  }
}
