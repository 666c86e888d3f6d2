import Metalink
import TestTiming
import Testing

/// `Repr-Digest` and `Content-Digest` (RFC 9530) and the obsolete `Digest` (RFC 3230).
@Suite(.timed) struct HTTPDigestsTests {
  static let sha256 = "9lcIK4Ywa3eyn4/i0zXjqZqpHa6hbeE0PFB4f1g12SA="
  static let sha512 =
    "5PiwH3v3pacW52PcRQl46s7oK0E0+wuvPUF2KD0APKZvotqQpb/ReIzSsOxDijwQHWiNDX888Yr91TNBGpKj7w=="

  @Test func aReprDigestDictionaryGivesEachKnownAlgorithm() throws {
    let digests = try #require(
      HTTPDigests.structured("sha-256=:\(Self.sha256):, sha-512=:\(Self.sha512):"))
    #expect(digests.map(\.algorithm) == [.sha512, .sha256])
    #expect(digests.last?.hex == MetalinkSamples.sha256)
    #expect(digests.first?.hex == MetalinkSamples.sha512)
  }

  @Test func unknownAndDeprecatedAlgorithmsAndOtherTypesAreIgnored() {
    let value =
      "unixsum=30637, md5=:aYttznG/Aozgc4lL1r6ifA==:, sha-256=:\(Self.sha256):;p=1, "
      + "x-future=(1 2 \"three\");a, flag, crc32c=:AAAAAA==:"
    #expect(HTTPDigests.structured(value)?.map(\.algorithm) == [.sha256])
  }

  @Test func aDigestOfTheWrongLengthIsIgnored() {
    #expect(HTTPDigests.structured("sha-256=:\(Self.sha512):") == [])
  }

  @Test func paddingIsOptionalInAByteSequence() {
    let unpadded = String(Self.sha256.dropLast())
    #expect(HTTPDigests.structured("sha-256=:\(unpadded):")?.first?.hex == MetalinkSamples.sha256)
  }

  @Test(arguments: [
    "sha-256=\(sha256)",  // base64 without colons: a number, then bytes that fit no item
    "sha-256=:\(sha256)",  // no closing colon
    "SHA-256=:\(sha256):",  // keys are lowercase
    "sha-256=:\(sha256):,",  // a trailing comma
    "sha-256=:\(sha256): sha-512=:\(sha512):",  // no comma
    "sha-256=:not base64!:",
    "sha-256=:\(sha256):, ,sha-512=:\(sha512):",
    "sha-256=\"unterminated",
  ])
  func aMalformedFieldGivesNothingAtAll(_ value: String) {
    #expect(HTTPDigests.structured(value) == nil)
  }

  @Test func theObsoleteDigestFieldIsReadWithItsOwnNames() throws {
    let digests = try #require(
      HTTPDigests.legacy(
        "MD5=aYttznG/Aozgc4lL1r6ifA==, SHA=22Wj/ZZlXFuirNX9RFlWjG8UGnY=, "
          + "SHA-256=\(Self.sha256),UNIXsum=30637, id-sha-256=\(Self.sha256)"))
    #expect(digests.map(\.algorithm) == [.md5, .sha1, .sha256])
    #expect(
      digests.map(\.hex) == [MetalinkSamples.md5, MetalinkSamples.sha1, MetalinkSamples.sha256])
  }

  @Test func aDigestFieldWithoutAnyAlgorithmValuePairIsNil() {
    #expect(HTTPDigests.legacy("garbage") == nil)
    #expect(HTTPDigests.legacy("SHA-256=not base64") == [])
  }

  @Test func reprDigestWinsOverDigestAndContentDigestIsKeptApart() {
    let digests = HTTPDigests(fields: [
      ("Content-Type", "application/octet-stream"),
      ("Digest", "SHA=22Wj/ZZlXFuirNX9RFlWjG8UGnY="),
      ("repr-digest", "sha-256=:\(Self.sha256):"),
      ("Content-Digest", "sha-512=:\(Self.sha512):"),
    ])
    #expect(digests.representation.map(\.algorithm) == [.sha256])
    #expect(digests.content.map(\.algorithm) == [.sha512])
  }

  @Test func withoutReprDigestTheObsoleteDigestDescribesTheFile() {
    let digests = HTTPDigests(fields: [
      ("Digest", "MD5=aYttznG/Aozgc4lL1r6ifA=="),
      ("DIGEST", "SHA-256=\(Self.sha256)"),
    ])
    #expect(digests.representation.map(\.algorithm) == [.md5, .sha256])
    #expect(Checksum.strongest(in: digests.representation)?.algorithm == .sha256)
  }

  @Test func severalReprDigestLinesAreOneDictionary() {
    let digests = HTTPDigests(fields: [
      ("Repr-Digest", "sha-256=:\(Self.sha256):"), ("Repr-Digest", "sha-512=:\(Self.sha512):"),
    ])
    #expect(Set(digests.representation.map(\.algorithm)) == [.sha256, .sha512])
  }
}
