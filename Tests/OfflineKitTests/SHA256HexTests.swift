import Foundation
import TestTiming
import Testing

@testable import OfflineKit

/// The lowercase hex every journal entry, manifest and `verify` compares digests in.
@Suite(.timed) struct SHA256HexTests {
  /// Guards the digit-by-digit hex of issue 14 (per-byte `String(format:)` was 6 % of a
  /// 1000-segment stream's CPU): the FIPS 180-2 answers, every nibble from 0 to f.
  @Test func digestsAreSpelledInLowercaseHexAsTheStandardGivesThem() {
    func hex(_ text: String) -> String {
      let hasher = SHA256()
      Array(text.utf8).withUnsafeBytes { hasher.update($0) }
      return hasher.finalizeHex()
    }
    #expect(hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    #expect(hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
  }
}
