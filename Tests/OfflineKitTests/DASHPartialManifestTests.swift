import DASHManifest
import Foundation
import Testing

@testable import OfflineKit

/// Issue 40, item 1: the MPD of a DASH presentation on its way, restricted to the disk
/// (`index-partial.mpd`), is cut where the disk ends for every Representation at once.
@Suite(.timed) struct DASHPartialManifestTests {
  /// One Period of 8 s with a video and an audio Representation, each four segments of 2 s.
  static func presentation() throws -> (MPD, [RepresentationPath: OfflineRepresentation]) {
    let mpd = try MPDParser.parse(
      """
      <?xml version="1.0"?>
      <MPD xmlns="urn:mpeg:dash:schema:mpd:2011" type="static" mediaPresentationDuration="PT8S"
        profiles="urn:mpeg:dash:profile:full:2011" minBufferTime="PT2S">
        <Period>
          <AdaptationSet mimeType="video/mp4"><Representation id="v" bandwidth="1000"/></AdaptationSet>
          <AdaptationSet mimeType="audio/mp4"><Representation id="a" bandwidth="100"/></AdaptationSet>
        </Period>
      </MPD>
      """)
    func files(_ folder: String) -> OfflineRepresentation {
      OfflineRepresentation(
        initialization: "\(folder)/init.mp4",
        segments: (0..<4).map {
          .init(name: "\(folder)/s0000\($0).m4s", time: UInt64($0) * 2000, duration: 2000)
        }, timescale: 1000)
    }
    return (
      mpd,
      [
        RepresentationPath(period: 0, adaptationSet: 0, representation: 0): files("v"),
        RepresentationPath(period: 0, adaptationSet: 1, representation: 0): files("a"),
      ]
    )
  }

  /// The media segments each Representation of `mpd` lists.
  static func listed(_ mpd: MPD) -> [Int] {
    mpd.periods[0].adaptationSets.map { set in
      let timeline = set.representations[0].segmentInfo.template?.timeline ?? []
      return timeline.reduce(0) { $0 + 1 + $1.repeatCount }
    }
  }

  @Test func theCutIsWhereTheShortestRepresentationOnDiskEnds() throws {
    let (mpd, files) = try Self.presentation()
    let landed: Set = [
      "v/init.mp4", "v/s00000.m4s", "v/s00001.m4s", "v/s00002.m4s", "a/init.mp4", "a/s00000.m4s",
      "a/s00002.m4s",  // after a gap: not playable yet
    ]
    let partial = try #require(DASHPartialManifest.make(from: mpd, files: files, landed: landed))
    #expect(partial.type == .static)
    #expect(partial.mediaPresentationDuration == 2)
    #expect(partial.periods[0].duration == 2)
    #expect(Self.listed(partial) == [3, 1])
  }

  @Test func everythingOnDiskIsTheOrdinaryOfflineMPD() throws {
    let (mpd, files) = try Self.presentation()
    let all = Set(files.values.flatMap { [$0.initialization!] + $0.segments.map(\.name) })
    let partial = DASHPartialManifest.make(from: mpd, files: files, landed: all)
    #expect(partial == (try OfflineManifest.make(from: mpd, files: files)))
    #expect(partial.map(Self.listed) == [4, 4])
  }

  @Test func aRepresentationWithoutItsInitSectionPlaysNothing() throws {
    let (mpd, files) = try Self.presentation()
    let landed: Set = ["v/init.mp4", "v/s00000.m4s", "a/s00000.m4s"]
    #expect(DASHPartialManifest.make(from: mpd, files: files, landed: landed) == nil)
  }
}
