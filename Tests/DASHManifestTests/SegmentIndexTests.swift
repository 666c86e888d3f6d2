import DASHManifest
import Foundation
import TestTiming
import Testing

/// The `sidx` box reader (ISO/IEC 14496-12 §8.16.3), on boxes built byte by byte.
@Suite(.timed) struct SegmentIndexTests {
  /// A `sidx` box of `version` with `references` as (size, duration, isIndex).
  static func box(
    version: UInt8, timescale: UInt32 = 1000, earliest: UInt64 = 500, firstOffset: UInt64 = 10,
    references: [(UInt32, UInt32, Bool)]
  ) -> [UInt8] {
    func bytes<T: FixedWidthInteger>(_ value: T) -> [UInt8] {
      withUnsafeBytes(of: value.bigEndian, Array.init)
    }
    var body: [UInt8] = [version, 0, 0, 0] + bytes(UInt32(1)) + bytes(timescale)
    body +=
      version == 0
      ? bytes(UInt32(earliest)) + bytes(UInt32(firstOffset)) : bytes(earliest) + bytes(firstOffset)
    body += bytes(UInt16(0)) + bytes(UInt16(references.count))
    for (size, duration, isIndex) in references {
      body +=
        bytes(size | (isIndex ? 0x8000_0000 : 0)) + bytes(duration) + bytes(UInt32(0x9000_0000))
    }
    return bytes(UInt32(body.count + 8)) + Array("sidx".utf8) + body
  }

  @Test(arguments: [UInt8(0), 1])
  func readsSizesAndDurationsOfBothVersions(_ version: UInt8) throws {
    let box = Self.box(version: version, references: [(100, 2000, false), (50, 1500, false)])
    let sidx = try SegmentIndex.parse(box)
    #expect(sidx.version == version)
    #expect(sidx.timescale == 1000 && sidx.earliestPresentationTime == 500)
    #expect(sidx.references.map(\.size) == [100, 50])
    #expect(sidx.references.map(\.duration) == [2000, 1500])
    #expect(sidx.references.allSatisfy { $0.startsWithSAP })
    // The box sits at byte 1000 of the file; the first segment is 10 bytes past its end.
    let range = try #require(ByteRange(first: 1000, last: 1000 + UInt64(box.count) - 1))
    let first = 1000 + UInt64(box.count) + 10
    #expect(
      try sidx.byteRanges(indexRange: range) == [
        ByteRange(first: first, last: first + 99), ByteRange(first: first + 100, last: first + 149),
      ])
  }

  /// Pins the offset's timescale: a SegmentBase's `presentationTimeOffset` is in its own
  /// `timescale`, the segments' times in the index's, and the listing had mixed the two.
  @Test func thePresentationTimeOffsetIsConvertedToTheIndexTimescale() throws {
    let mpd = try MPDParser.parse(
      """
      <MPD mediaPresentationDuration="PT6S"><Period><AdaptationSet><Representation id="v" bandwidth="1">
        <BaseURL>v.mp4</BaseURL>
        <SegmentBase timescale="1000" presentationTimeOffset="2000" indexRange="100-143"/>
      </Representation></AdaptationSet></Period></MPD>
      """)
    let listing = try SegmentResolver().segments(
      for: mpd.representationPaths[0], in: mpd, manifestURL: URL(string: "https://a.example/m.mpd")!
    )
    #expect(listing.presentationTimeOffset == 2000 && listing.timescale == 1000)
    let sidx = try SegmentIndex.parse(
      Self.box(version: 0, timescale: 90_000, earliest: 180_000, references: [(8, 90_000, false)]))
    let applied = try listing.applying(sidx)
    #expect(applied.timescale == 90_000)
    #expect(applied.presentationTimeOffset == 180_000)
    #expect(applied.segments.map(\.time) == [180_000])
  }

  @Test func skipsBoxesBeforeTheIndex() throws {
    let styp: [UInt8] = [0, 0, 0, 12] + Array("stypmsdh".utf8)
    let sidx = try SegmentIndex.parse(styp + Self.box(version: 0, references: [(8, 1, false)]))
    #expect(sidx.boxOffset == 12)
  }

  @Test func refusesAHierarchicalIndexAsUnsupported() throws {
    let sidx = try SegmentIndex.parse(Self.box(version: 0, references: [(8, 1, true)]))
    #expect {
      try sidx.byteRanges(indexRange: ByteRange(first: 0, last: 100)!)
    } throws: { ($0 as? MPDError)?.kind == .unsupported }
  }

  @Test func refusesTruncatedOrWrongBoxes() {
    let box = Self.box(version: 1, references: [(8, 1, false), (9, 1, false)])
    for length in [0, 4, 8, 20, box.count - 1] {
      #expect(throws: MPDError.self) { try SegmentIndex.parse(Array(box.prefix(length))) }
    }
    var version2 = box
    version2[8] = 2
    #expect(throws: MPDError.self) { try SegmentIndex.parse(version2) }
    var zeroTimescale = Self.box(version: 0, timescale: 0, references: [])
    #expect(throws: MPDError.self) { try SegmentIndex.parse(zeroTimescale) }
    zeroTimescale[3] = 7  // a size below the header
    #expect(throws: MPDError.self) { try SegmentIndex.parse(zeroTimescale) }
    #expect(throws: MPDError.self) { try SegmentIndex.parse(Array("moov".utf8)) }
  }
}
