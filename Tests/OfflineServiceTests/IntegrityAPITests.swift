import Foundation
import OfflineKit
import OfflineService
import TestSupport
import TestTiming
import Testing

/// Issue 16, item 3 (the verify call) on issue 15's verify and repair: a client finds the
/// damage of a downloaded file over the API and has only the damaged chunk fetched again.
@Suite("offline serve's verify and repair calls", .serialized, .timed)
struct IntegrityAPITests {
  // Pins: the API had no verify call, so a client of serve could not tell a damaged file
  // from a whole one, nor mend it.
  @Test func verifyNamesTheDamagedChunkAndRepairMendsIt() async throws {
    let fixture = try await ServiceFixture()
    let body = TestData.bytes(count: 10 << 20, seed: 61)
    try body.write(to: fixture.origin.file("movie.bin"))
    let id = try await fixture.add("/movie.bin")
    try await fixture.waitFor(id, .downloaded, timeout: 60)

    let whole = try #require(try await fixture.post("/api/contents/\(id)/verify", "").json)
    #expect((whole as? [String: Any])?["whole"] as? Bool == true)

    let path = StoreFiles.file("movie.bin", of: id, in: fixture.store.url).path
    let handle = try #require(FileHandle(forUpdatingAtPath: path))
    try handle.seek(toOffset: (5 << 20) + 17)  // in the second 4 MiB chunk
    try handle.write(contentsOf: Data([0x00, 0xFF, 0x00]))
    try handle.close()

    let found = try await fixture.post("/api/contents/\(id)/verify", "")
    #expect(found.status == 200)
    let report = try #require(found.json as? [String: Any])
    #expect(report["whole"] as? Bool == false)
    let problem = try #require((report["problems"] as? [[String: Any]])?.first)
    #expect(problem["path"] as? String == "movie.bin")
    #expect(problem["fault"] as? String == "wrongHash")
    #expect(problem["chunkOffsets"] as? [Int] == [4 << 20])

    let repaired = try await fixture.post("/api/contents/\(id)/repair", "")
    #expect(repaired.status == 200, "\(repaired.text)")
    let repair = try #require(repaired.json as? [String: Any])
    #expect(repair["outcome"] as? String == "repaired")
    #expect(repair["chunksFetched"] as? Int == 1)
    #expect(FileManager.default.contents(atPath: path) == body)
    let again = try await fixture.post("/api/contents/\(id)/verify", "")
    #expect((again.json as? [String: Any])?["whole"] as? Bool == true)
    await fixture.close()
  }

  // Pins: verify and repair of a content that is not downloaded answer 409 naming the
  // state, and a repair body that is not {"redownload": bool} is 400.
  @Test func verifyOfAContentNotDownloadedIs409AndABadRepairBodyIs400() async throws {
    let fixture = try await ServiceFixture(nginx: .init(limitRate: "64k"))
    try TestData.writeFile(at: fixture.origin.file("slow.bin"), count: 8 << 20)
    let id = try await fixture.add("/slow.bin")
    _ = try await fixture.post("/api/contents/\(id)/pause", "")
    let refused = try await fixture.post("/api/contents/\(id)/verify", "")
    #expect(refused.status == 409)
    #expect((refused.json as? [String: Any])?["state"] as? String == "suspended")
    let bad = try await fixture.post("/api/contents/\(id)/repair", #"{"redownload":"yes"}"#)
    #expect(bad.status == 400)
    #expect(try await fixture.post("/api/contents/nosuchid/verify", "").status == 404)
    await fixture.close()
  }
}
