import Foundation
import OfflineKit
import OfflineService
import TestSupport
import TestTiming
import Testing

/// `/content/<id>/…` for a file in the store's shared `files/` folder (issue 14, no folder
/// per file): the content's own file is served, and never a neighbour's.
@Suite("offline serve serves a flat file and only it", .serialized, .timed)
struct FlatFileServingTests {
  // Pins: a flat file's folder is shared with every other flat file, so serving "its folder"
  // as before would hand out another content's file under this content's id.
  @Test func aFlatContentServesItsOwnFileAndNotItsNeighbours() async throws {
    let fixture = try await ServiceFixture()
    let first = try await fixture.download("first.bin", count: 3_000)
    let second = try await fixture.download("second.bin", count: 4_000)

    let own = try await Curl.fetch(fixture.url("/content/\(first)/first.bin"))
    #expect(own.status == 200)
    #expect(own.body == (try Data(contentsOf: fixture.origin.file("first.bin"))))
    #expect(try await Curl.fetch(fixture.url("/content/\(first)/second.bin")).status == 404)
    #expect(try await Curl.fetch(fixture.url("/content/\(second)/first.bin")).status == 404)
    #expect(try await Curl.fetch(fixture.url("/content/\(second)/second.bin")).status == 200)
    await fixture.close()
  }
}
