import HexDigits
import TestTiming
import Testing

@Suite(.timed) struct ASCIIHexTests {
  @Test func everyByteHasTheValueItsDigitNamesAndNoOtherByteIsADigit() {
    let digits = Array("0123456789abcdef".utf8)
    let upper = Array("ABCDEF".utf8)
    for byte in UInt8.min...UInt8.max {
      let expected: UInt8? =
        digits.firstIndex(of: byte).map(UInt8.init)
        ?? upper.firstIndex(of: byte).map { UInt8($0 + 10) }
      #expect(ASCIIHex.value(ofDigit: byte) == expected, "byte \(byte)")
    }
  }

  @Test func bytesAreReadTwoDigitsEachHighHalfFirst() {
    #expect(ASCIIHex.bytes(Array("00ff7Fa0".utf8)) == [0x00, 0xFF, 0x7F, 0xA0])
    #expect(ASCIIHex.bytes([UInt8]()) == [])
  }

  @Test func anOddCountOrANonDigitIsNoBytes() {
    #expect(ASCIIHex.bytes(Array("abc".utf8)) == nil)
    #expect(ASCIIHex.bytes(Array("0g".utf8)) == nil)
    #expect(ASCIIHex.bytes(Array("+f".utf8)) == nil)
  }

  @Test func bytesAreWrittenTwoDigitsEachInTheCaseAskedFor() {
    #expect(ASCIIHex.digits([0x00, 0xAB, 0x0F]) == "00ab0f")
    #expect(ASCIIHex.digits([0x00, 0xAB, 0x0F], uppercase: true) == "00AB0F")
    let all = (UInt8.min...UInt8.max).map { $0 }
    #expect(ASCIIHex.bytes(Array(ASCIIHex.digits(all).utf8)) == all)
  }

  /// `Character.isHexDigit` says yes to fullwidth digits: `--sha256`, the service's `sha256`
  /// and aria2's `checksum` each checked with it and let 64 of them through to the library,
  /// whose own check (by UTF-8 length) was the one that refused them.
  @Test func fullwidthDigitsAreNotHexDigits() {
    let fullwidth = String(repeating: "\u{FF41}", count: 64)
    #expect(fullwidth.allSatisfy { $0.isHexDigit })
    #expect(!ASCIIHex.isDigits(fullwidth, count: 64))
    #expect(!ASCIIHex.isDigits(fullwidth))
  }

  @Test func isDigitsChecksTheCountWhenOneIsGiven() {
    #expect(ASCIIHex.isDigits(String(repeating: "aF", count: 32), count: 64))
    #expect(!ASCIIHex.isDigits(String(repeating: "a", count: 63), count: 64))
    #expect(ASCIIHex.isDigits("0"))
    #expect(!ASCIIHex.isDigits(""))
    #expect(ASCIIHex.isDigits("", count: 0))
  }
}
