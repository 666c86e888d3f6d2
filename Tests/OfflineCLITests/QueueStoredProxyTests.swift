import Foundation
import TestSupport
import TestTiming
import Testing

/// `add --proxy` is kept with the content (issue 13, item 2), its credentials in the
/// secrets folder alone.
@Suite(.serialized, .ownThreads, .timed) struct QueueStoredProxyTests {
  /// Pins: `add` took no `--proxy`, so a queued content could not go through one; given,
  /// it must reach a `run` in another process, and its password only the secrets folder.
  @Test func aProxyGivenToAddIsUsedByALaterRunAndItsPasswordStaysInTheSecrets() async throws {
    let fixture = try ProxyFixture(proxyAuth: (user: "alice", password: "pr0xy-s3cret"))
    let added = try await fixture.offline([
      "add", fixture.url("/proxied/file.bin"), "--id", "via", "--proxy",
      "http://alice:pr0xy-s3cret@127.0.0.1:\(fixture.proxy.port)",
    ])
    #expect(added.status == 0, "\(added.stderrText)")
    let run = try await fixture.offline(["run"])
    #expect(run.status == 0, "\(run.stderrText)")
    let file = StoreFiles.file("file.bin", of: "via", in: fixture.store).path
    #expect(fixture.downloaded(file))
    let listed = try await fixture.offline(["ls", "--json"])
    for text in [added.stderrText, run.stdoutText, run.stderrText, listed.stdoutText] {
      #expect(!text.contains("pr0xy-s3cret"), "\(text)")
    }
    let secrets = fixture.store.appending(path: "secrets").path
    let walker = try #require(FileManager.default.enumerator(atPath: fixture.store.path))
    while let relative = walker.nextObject() as? String {
      let path = fixture.store.appending(path: relative).path
      guard !path.hasPrefix(secrets + "/"), let data = FileManager.default.contents(atPath: path)
      else { continue }
      #expect(data.range(of: Data("pr0xy-s3cret".utf8)) == nil, "\(relative)")
    }
  }
}
