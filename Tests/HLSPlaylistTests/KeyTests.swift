import HLSPlaylist
import TestTiming
import Testing

@Suite(.timed) struct KeyTests {
  @Test func appliesEachKeyUntilTheNextOne() throws {
    let media = try parseMedia(Fixtures.aes128Rotation)
    let first = Key(method: .aes128, uri: "https://keys.example.com/key?id=1")
    let second = Key(
      method: .aes128, uri: "key2.bin",
      iv: [
        0x01, 0x23, 0x45, 0x67, 0x89, 0xAB, 0xCD, 0xEF, 0x01, 0x23, 0x45, 0x67, 0x89, 0xAB, 0xCD,
        0xEF,
      ])
    #expect(media.segments.map(\.key) == [first, first, second, second, nil])
    #expect(media.segments[4].keys.isEmpty)
    #expect(first.isIdentityFormat)
  }

  @Test func derivesTheIVFromTheMediaSequenceNumberWhenThereIsNone() throws {
    let media = try parseMedia(Fixtures.aes128Rotation)
    let segment = media.segments[1]
    #expect(segment.mediaSequenceNumber == 7795)
    let iv = try #require(segment.key).initializationVector(forMediaSequence: 7795)
    #expect(iv == [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x1E, 0x73])
  }

  @Test func usesTheExplicitIVWhenThereIsOne() throws {
    let key = try #require(try parseMedia(Fixtures.aes128Rotation).segments[2].key)
    #expect(key.initializationVector(forMediaSequence: 7796) == key.iv)
    #expect(key.iv?.count == 16)
  }

  @Test func writesTheSequenceNumberBigEndian() {
    let key = Key(method: .aes128, uri: "k")
    #expect(key.initializationVector(forMediaSequence: 0) == [UInt8](repeating: 0, count: 16))
    #expect(
      key.initializationVector(forMediaSequence: 0x0102_0304_0506_0708)
        == [0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8])
  }

  @Test func readsFairPlaySampleAES() throws {
    let media = try parseMedia(Fixtures.fairPlay)
    let key = try #require(media.segments.first?.key)
    #expect(key.method == .sampleAES)
    #expect(key.uri == "skd://twelve-byte-asset-id")
    #expect(key.keyFormat == "com.apple.streamingkeydelivery")
    #expect(key.keyFormatVersions == "1")
    #expect(!key.isIdentityFormat)
    // The key comes before the map, so it applies to the map too (RFC 8216 §4.3.2.4).
    #expect(
      media.segments.allSatisfy {
        $0.key == key && $0.map == MapSection(uri: "init.mp4", keys: [key])
      })
  }

  @Test func keepsOneKeyPerFormatAndReplacesOnlyTheSameFormat() throws {
    let media = try parseMedia(Fixtures.multiDRM)
    #expect(
      media.segments[0].keys.map(\.uri) == ["skd://asset-1", "data:text/plain;base64,AAAAW3Bzc2g="])
    #expect(
      media.segments[1].keys.map(\.uri) == ["skd://asset-2", "data:text/plain;base64,AAAAW3Bzc2g="])
    #expect(media.segments[1].keys.allSatisfy { $0.method == .sampleAESCTR })
  }

  @Test func writesTheIVAsUppercaseHexAndKeysOnlyWhereTheyChange() throws {
    let text = PlaylistWriter.write(try parseMedia(Fixtures.aes128Rotation))
    #expect(text.contains("IV=0x0123456789ABCDEF0123456789ABCDEF"))
    let keyLines = text.split(separator: "\n").filter { $0.hasPrefix("#EXT-X-KEY:") }
    #expect(
      keyLines == [
        #"#EXT-X-KEY:METHOD=AES-128,URI="https://keys.example.com/key?id=1""#,
        #"#EXT-X-KEY:METHOD=AES-128,URI="key2.bin",IV=0x0123456789ABCDEF0123456789ABCDEF"#,
        "#EXT-X-KEY:METHOD=NONE",
      ])
  }

  @Test func clearsOtherFormatsWhenAKeyFormatIsDropped() throws {
    var media = try parseMedia(Fixtures.multiDRM)
    media.segments[1].key = Key(method: .aes128, uri: "clear.key")
    let again = try parseMedia(PlaylistWriter.write(media))
    #expect(again.segments[1].keys == [Key(method: .aes128, uri: "clear.key")])
    #expect(again.segments[0].keys == media.segments[0].keys)
  }

  @Test func keepsUnknownMethodsAndAttributes() throws {
    let media = try parseMedia(
      """
      #EXTM3U
      #EXT-X-TARGETDURATION:4
      #EXT-X-KEY:METHOD=ISO-23001-7,URI="k",X-VENDOR="v1"
      #EXTINF:4,
      a.ts
      """)
    let key = try #require(media.segments[0].key)
    #expect(key.method == .other("ISO-23001-7"))
    #expect(key.otherAttributes == [Attribute(name: "X-VENDOR", value: #""v1""#)])
    #expect(
      PlaylistWriter.write(media).contains(#"#EXT-X-KEY:METHOD=ISO-23001-7,URI="k",X-VENDOR="v1""#))
  }
}
