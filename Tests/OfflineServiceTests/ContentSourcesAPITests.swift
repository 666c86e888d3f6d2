import Foundation
import OfflineKit
import TestSupport
import TestTiming
import Testing

/// The service's content JSON says which sources served a file fetched from several, and
/// why any was dropped (issue 43), as `ls --json` does: one projection.
@Suite(.timed) struct ContentSourcesAPITests {
  @Test func aFileFromSeveralSourcesShowsWhatEachServed() async throws {
    let fixture = try await ServiceFixture()
    let size = 16 << 20
    try TestData.writeFile(at: fixture.origin.file("big.bin"), count: size)
    let copies = fixture.origin.url.appending(path: "copy")
    try FileManager.default.createDirectory(at: copies, withIntermediateDirectories: true)
    try TestData.writeFile(at: copies.appending(path: "big.bin"), count: size)
    try TestData.writeFile(at: copies.appending(path: "short.bin"), count: size - 1)
    let mirror = fixture.nginx.url("/copy/big.bin")
    let short = fixture.nginx.url("/copy/short.bin")
    let content = try await fixture.manager.add([
      OfflineSource(url: fixture.nginx.url("/big.bin"), mirrors: [mirror, short])
    ]).first!
    try await fixture.waitFor(content.id, .downloaded, timeout: 60)

    let reply = try await Curl.fetch(fixture.url("/api/contents/\(content.id)"))
    let object = try #require(reply.json as? [String: Any], "\(reply.text)")
    let sources = try #require(object["sources"] as? [[String: Any]], "\(reply.text)")
    #expect(
      sources.map { $0["url"] as? String }
        == [
          fixture.nginx.url("/big.bin").absoluteString, mirror.absoluteString, short.absoluteString,
        ])
    #expect(sources.map { $0["primary"] as? Bool } == [true, false, false])
    let served = sources.reduce(0) { $0 + ($1["bytes"] as? Int ?? 0) }
    #expect(served == size)
    #expect((sources.last?["dropped"] as? String)?.contains("length") == true, "\(sources)")
    #expect(sources.prefix(2).allSatisfy { $0["dropped"] == nil })
    await fixture.close()
  }
}
