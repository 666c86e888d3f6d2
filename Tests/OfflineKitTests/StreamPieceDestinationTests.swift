import Foundation
import OfflineHTTP
import OfflineStore
import TestSupport
import TestTiming
import Testing

@testable import OfflineKit

/// What is in the way of a stream's piece inside its folder. The pieces no longer look up
/// what is at their names before the download and the rename (issue 14, HLS CPU: two
/// look-ups of a missing path per piece); the rename itself must still refuse a folder and
/// never write through a link.
@Suite(.serialized, .enabled(if: FFmpeg.isAvailable), .timed)
struct StreamPieceDestinationTests {
  struct Setup {
    let origin: HLSOrigin
    let store: TemporaryDirectory
    let index: OfflineIndex
    var folder: URL { store.url.appending(path: "content") }

    init() async throws {
      origin = try await HLSOrigin(.manySegments, segmentCount: 6)
      store = try TemporaryDirectory()
      index = try OfflineIndex(directory: store.url.appending(path: "store"))
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    /// A download whose pieces each get a file (small segments would go into a pack).
    func download() -> HLSDownload {
      HLSDownload(
        url: origin.url, folder: folder,
        configuration: StreamConfiguration(packsSmallSegments: false), journal: index.transfers,
        transport: CurlTransport())
    }
  }

  @Test func aFolderWhereAPieceBelongsFailsTheDownloadAndIsLeftAsItWas() async throws {
    let setup = try await Setup()
    let inTheWay = setup.folder.appending(path: "s00003.ts")
    try FileManager.default.createDirectory(at: inTheWay, withIntermediateDirectories: false)
    let kept = inTheWay.appending(path: "mine.txt")
    try Data("mine".utf8).write(to: kept)

    let error = await #expect(throws: Transfer.Error.self) { try await setup.download().run() }
    guard case .file(let file) = error?.kind else {
      Issue.record("not a file error: \(String(describing: error))")
      return
    }
    #expect(file.operation == .rename)
    #expect(file.errno == EISDIR)
    #expect(file.path == inTheWay.path)
    #expect(FileManager.default.contents(atPath: kept.path) == Data("mine".utf8))
  }

  @Test func aLinkWhereAPieceBelongsIsReplacedAndItsTargetNeverWritten() async throws {
    let setup = try await Setup()
    let outside = setup.store.url.appending(path: "outside.txt")
    try Data("outside".utf8).write(to: outside)
    let link = setup.folder.appending(path: "s00002.ts")
    try FileManager.default.createSymbolicLink(at: link, withDestinationURL: outside)

    let outcome = try await setup.download().run()
    #expect(outcome.segments == 6)
    #expect(FileManager.default.contents(atPath: outside.path) == Data("outside".utf8))
    let attributes = try FileManager.default.attributesOfItem(atPath: link.path)
    #expect(attributes[.type] as? FileAttributeType == .typeRegular)
    let served = setup.origin.files.folder.appending(path: "seg2.ts")
    #expect(
      FileManager.default.contents(atPath: link.path)
        == FileManager.default.contents(atPath: served.path))
  }
}
