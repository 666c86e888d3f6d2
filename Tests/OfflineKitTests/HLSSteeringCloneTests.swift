import Foundation
import HLSPlaylist
import TestTiming
import Testing

@testable import OfflineKit

/// Issue 43, item 3: a steering manifest's `PATHWAY-CLONES` (the HLS Content Steering
/// specification, "Pathway Cloning") read as values, the URI replacement rules one row
/// each, and the pathways a clone adds to a playlist.
@Suite(.timed) struct HLSSteeringCloneTests {
  static func manifest(_ clones: String) throws -> HLSSteering.Manifest {
    let json = #"{"VERSION":1,"PATHWAY-PRIORITY":["B","A"],"PATHWAY-CLONES":\#(clones)}"#
    return try #require(HLSSteering.manifest(of: Data(json.utf8)))
  }

  @Test func readsAWholeClone() throws {
    let manifest = try Self.manifest(
      #"""
      [{"BASE-ID":"A","ID":"B","URI-REPLACEMENT":{"HOST":"b.example:8443",
        "PARAMS":{"token":"x","cdn":"b"},"PER-VARIANT-URIS":{"v1":"https://c.example/v1.m3u8"},
        "PER-RENDITION-URIS":{"r1":"https://c.example/r1.m3u8"}}}]
      """#)
    #expect(manifest.ignored.isEmpty)
    #expect(
      manifest.clones == [
        HLSSteering.Clone(
          baseID: "A", id: "B", host: "b.example:8443", params: ["token": "x", "cdn": "b"],
          perVariantURIs: ["v1": "https://c.example/v1.m3u8"],
          perRenditionURIs: ["r1": "https://c.example/r1.m3u8"])
      ])
  }

  /// Each malformed entry is left out with a line saying why; the good one beside it stays,
  /// and so does the manifest's priority.
  @Test(arguments: [
    (#"42"#, "is not an object"),
    (#"{"ID":"B","URI-REPLACEMENT":{}}"#, "has no valid BASE-ID"),
    (#"{"BASE-ID":"A","URI-REPLACEMENT":{}}"#, "has no valid ID"),
    (#"{"BASE-ID":"A","ID":"B C","URI-REPLACEMENT":{}}"#, "has no valid ID"),
    (#"{"BASE-ID":"A","ID":"","URI-REPLACEMENT":{}}"#, "has no valid ID"),
    (#"{"BASE-ID":7,"ID":"B","URI-REPLACEMENT":{}}"#, "has no valid BASE-ID"),
    (#"{"BASE-ID":"A","ID":"B"}"#, "has no URI-REPLACEMENT object"),
    (#"{"BASE-ID":"A","ID":"B","URI-REPLACEMENT":"x"}"#, "has no URI-REPLACEMENT object"),
    (#"{"BASE-ID":"A","ID":"B","URI-REPLACEMENT":{"HOST":"a/b"}}"#, "HOST that is not"),
    (#"{"BASE-ID":"A","ID":"B","URI-REPLACEMENT":{"HOST":"h:99999"}}"#, "HOST that is not"),
    (#"{"BASE-ID":"A","ID":"B","URI-REPLACEMENT":{"HOST":""}}"#, "HOST that is not"),
    (#"{"BASE-ID":"A","ID":"B","URI-REPLACEMENT":{"HOST":3}}"#, "HOST that is not"),
    (#"{"BASE-ID":"A","ID":"B","URI-REPLACEMENT":{"PARAMS":{"a":1}}}"#, "PARAMS that is not"),
    (#"{"BASE-ID":"A","ID":"B","URI-REPLACEMENT":{"PARAMS":["a"]}}"#, "PARAMS that is not"),
    (#"{"BASE-ID":"A","ID":"B","URI-REPLACEMENT":{"PARAMS":{"":"x"}}}"#, "PARAMS that is not"),
    (
      #"{"BASE-ID":"A","ID":"B","URI-REPLACEMENT":{"PER-VARIANT-URIS":{"v":null}}}"#,
      "PER-VARIANT-URIS that is not"
    ),
    (
      #"{"BASE-ID":"A","ID":"B","URI-REPLACEMENT":{"PER-RENDITION-URIS":3}}"#,
      "PER-RENDITION-URIS that is not"
    ),
  ])
  func aMalformedCloneIsLeftOutWithALogLine(entry: String, reason: String) throws {
    let good = #"{"BASE-ID":"A","ID":"OK","URI-REPLACEMENT":{}}"#
    let manifest = try Self.manifest("[\(entry),\(good)]")
    #expect(manifest.clones.map(\.id) == ["OK"])
    #expect(manifest.priority == ["B", "A"])
    #expect(manifest.ignored.count == 1)
    #expect(manifest.ignored.first?.hasPrefix("pathway clone 1 ") == true, "\(manifest.ignored)")
    #expect(manifest.ignored.first?.contains(reason) == true, "\(manifest.ignored)")
  }

  @Test func aCloneListThatIsNotAListIsIgnoredAndTheRestOfTheManifestHolds() throws {
    let manifest = try Self.manifest(#"{"BASE-ID":"A"}"#)
    #expect(manifest.clones.isEmpty)
    #expect(manifest.priority == ["B", "A"])
    #expect(manifest.ignored == ["PATHWAY-CLONES is not a list"])
  }

  @Test func aLongCloneListIsCut() throws {
    let entries = (0..<200).map { #"{"BASE-ID":"A","ID":"c\#($0)","URI-REPLACEMENT":{}}"# }
    let manifest = try Self.manifest("[" + entries.joined(separator: ",") + "]")
    #expect(manifest.clones.count == HLSSteering.clonesLimit)
    #expect(manifest.ignored.count == 1)
  }

  /// Random bytes and random mutations of a good manifest never crash the reader.
  @Test func arbitraryBytesNeverCrashTheReader() {
    var generator = SystemRandomNumberGenerator()
    let good = Array(
      #"{"VERSION":1,"PATHWAY-PRIORITY":["A"],"PATHWAY-CLONES":[{"BASE-ID":"A","ID":"B","URI-REPLACEMENT":{"HOST":"h:1","PARAMS":{"a":"b"}}}]}"#
        .utf8)
    for _ in 0..<2000 {
      var bytes = good
      for _ in 0..<Int.random(in: 1...6, using: &generator) {
        let at = Int.random(in: 0..<bytes.count, using: &generator)
        bytes[at] = UInt8.random(in: 0...255, using: &generator)
      }
      if let manifest = HLSSteering.manifest(of: Data(bytes)) {
        #expect(manifest.clones.count <= 1)
      }
    }
  }

  // MARK: - URI replacement, one rule a row

  static let playlistURL = URL(string: "https://a.example/live/master.m3u8")!
  static let manifestURL = URL(string: "https://steer.example/s/steering.json")!

  @Test(
    arguments: [
      // No replacement: the URI resolved against the playlist.
      ("v/index.m3u8", nil, "", nil, "https://a.example/live/v/index.m3u8"),
      // HOST replaces the host and keeps the port of the URI when it names none.
      ("v/index.m3u8", "b.example", "", nil, "https://b.example/live/v/index.m3u8"),
      ("https://a.example:8443/v.m3u8", "b.example", "", nil, "https://b.example:8443/v.m3u8"),
      // A HOST with a port replaces both.
      ("v/index.m3u8", "127.0.0.1:8081", "", nil, "https://127.0.0.1:8081/live/v/index.m3u8"),
      // PARAMS are set in name order, replacing one of the same name, keeping the others.
      (
        "v.m3u8?token=old&x=1", nil, "token=new,a=b", nil,
        "https://a.example/live/v.m3u8?x=1&a=b&token=new"
      ),
      // A PER-VARIANT-URIS entry wins over HOST, is relative to the manifest, and gets PARAMS.
      ("v.m3u8", "b.example", "a=b", "v1", "https://steer.example/s/per/v1.m3u8?a=b"),
      // A stable ID the clone does not list: HOST applies.
      ("v.m3u8", "b.example", "", "v9", "https://b.example/live/v.m3u8"),
    ] as [(String, String?, String, String?, String)])
  func aCloneRewritesAURI(
    uri: String, host: String?, params: String, stableID: String?, expected: String
  ) throws {
    let pairs = params.split(separator: ",").map { $0.split(separator: "=").map(String.init) }
    let clone = HLSSteering.Clone(
      baseID: "A", id: "B", host: host,
      params: Dictionary(uniqueKeysWithValues: pairs.map { ($0[0], $0[1]) }),
      perVariantURIs: ["v1": "per/v1.m3u8"])
    let url = try HLSSteering.replacing(
      uri, stableID: stableID, perURIs: clone.perVariantURIs, by: clone,
      playlistURL: Self.playlistURL, manifestURL: Self.manifestURL)
    #expect(url.absoluteString == expected)
  }

  @Test func aPerVariantURIThatIsNotHTTPIsRefused() {
    let clone = HLSSteering.Clone(baseID: "A", id: "B", perVariantURIs: ["v1": "ftp://x/v.m3u8"])
    #expect(throws: Transfer.Error.self) {
      try HLSSteering.replacing(
        "v.m3u8", stableID: "v1", perURIs: clone.perVariantURIs, by: clone,
        playlistURL: Self.playlistURL, manifestURL: Self.manifestURL)
    }
  }

  // MARK: - Cloning a playlist

  static let master = """
    #EXTM3U
    #EXT-X-CONTENT-STEERING:SERVER-URI="/steer.json",PATHWAY-ID="A"
    #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aud",NAME="English",LANGUAGE="en",URI="a/en.m3u8"
    #EXT-X-STREAM-INF:BANDWIDTH=300000,AUDIO="aud",PATHWAY-ID="A",STABLE-VARIANT-ID="lo"
    a/lo.m3u8
    #EXT-X-STREAM-INF:BANDWIDTH=600000,AUDIO="aud",PATHWAY-ID="A"
    a/hi.m3u8
    #EXT-X-STREAM-INF:BANDWIDTH=300000,PATHWAY-ID="Z"
    https://z.example/lo.m3u8
    """

  static func parsed() throws -> MasterPlaylist {
    guard case .master(let master) = try PlaylistParser.parse(Self.master) else {
      throw CancellationError()
    }
    return master
  }

  @Test func aCloneCopiesItsBasePathwaysVariantsAndRenditionsOntoTheNewHost() throws {
    let clone = HLSSteering.Clone(
      baseID: "A", id: "B", host: "b.example", params: ["p": "1"],
      perVariantURIs: ["lo": "https://lo.example/lo.m3u8"])
    let (cloned, ignored) = HLSSteering.cloned(
      try Self.parsed(), by: [clone], playlistURL: Self.playlistURL, manifestURL: Self.manifestURL)
    #expect(ignored.isEmpty)
    let copies = cloned.variants.filter { $0.pathwayID == "B" }
    #expect(
      copies.map(\.uri) == [
        "https://lo.example/lo.m3u8?p=1", "https://b.example/live/a/hi.m3u8?p=1",
      ])
    #expect(copies.map(\.bandwidth) == [300_000, 600_000])
    let group = try #require(copies.first?.audioGroup)
    #expect(group != "aud" && copies.allSatisfy { $0.audioGroup == group })
    #expect(
      cloned.renditions.filter { $0.groupID == group }.map(\.uri) == [
        "https://b.example/live/a/en.m3u8?p=1"
      ])
    #expect(cloned.renditions.filter { $0.groupID == "aud" }.map(\.uri) == ["a/en.m3u8"])
    // The clone is a backup like any pathway, in the order a priority gives.
    let steered = cloned.steered(by: ["B", "A"])
    #expect(steered.primaryVariants.map(\.pathwayID) == ["B", "B"])
    let lo = try #require(steered.primaryVariants.first)
    #expect(steered.backups(of: lo).map(\.pathwayID) == ["A", "Z"])
  }

  @Test func aCloneOfAnExistingOrUnknownPathwayIsLeftOutWithALogLine() throws {
    let clones = [
      HLSSteering.Clone(baseID: "A", id: "Z"), HLSSteering.Clone(baseID: "Q", id: "C"),
      HLSSteering.Clone(baseID: "A", id: "C", perVariantURIs: ["lo": "file:///etc/passwd"]),
      HLSSteering.Clone(baseID: "A", id: "D"), HLSSteering.Clone(baseID: "D", id: "E"),
    ]
    let master = try Self.parsed()
    let (cloned, ignored) = HLSSteering.cloned(
      master, by: clones, playlistURL: Self.playlistURL, manifestURL: Self.manifestURL)
    #expect(ignored.count == 3, "\(ignored)")
    #expect(ignored[0].contains("pathway clone Z") && ignored[0].contains("has that pathway"))
    #expect(ignored[1].contains("BASE-ID Q"))
    #expect(ignored[2].contains("pathway clone C") && ignored[2].contains("not an http"))
    // A clone may copy a clone listed before it.
    #expect(cloned.pathwayOrder == ["A", "Z", "D", "E"])
    #expect(cloned.variants.count == master.variants.count + 4)
  }
}
