import Foundation
import OfflineKit
import OfflineService
import TestSupport
import TestTiming
import Testing

/// Issue 36, items 5 and 6: what `/content/` hands out cannot act as the service, and none
/// of a content's bookkeeping is handed out.
@Suite("offline serve's content cannot act as the service", .serialized, .timed)
struct ContentOriginTests {
  static let token = "hostile-test-token-0123456789"

  /// A page whose script, run in the service's origin, reads every content and adds one.
  static func hostilePage(planting planted: URL) -> String {
    """
    <!doctype html><title>waiting</title><div id="hostile">loaded</div>
    <script>
    (async () => {
      let read = "blocked", add = "blocked";
      try {
        const answer = await fetch("/api/contents");
        read = answer.ok ? "read " + (await answer.json()).length : "status " + answer.status;
      } catch (error) { read = "error"; }
      try {
        const answer = await fetch("/api/contents", {method: "POST",
          headers: {"Content-Type": "application/json"},
          body: JSON.stringify({urls: ["\(planted.absoluteString)"]})});
        add = "status " + answer.status;
      } catch (error) { add = "error"; }
      document.title = "read=" + read + ";add=" + add;
    })();
    </script>
    """
  }

  // Pins: a downloaded HTML file was served as text/html from the service's own origin, so
  // its script was same-origin with the API: in a browser holding the token cookie it
  // listed every content (signed URLs included) and added downloads.
  @Test func aServedHTMLFileCannotCallTheAPIInABrowser() async throws {
    let fixture = try await ServiceFixture(configuration: .init(token: Self.token))
    let planted = fixture.nginx.url("/planted.bin")
    try Data(Self.hostilePage(planting: planted).utf8).write(to: fixture.origin.file("x.html"))
    let id = try await fixture.download(url: fixture.nginx.url("/x.html"))
    let downloads = try TemporaryDirectory(prefix: "offlinekit-serve-downloads")
    let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appending(path: "scripts/hostile_page.py").path
    let output = try await ProcessRunner.run(
      "/usr/bin/env",
      ["python3", script, fixture.url(""), Self.token, "/content/\(id)/x.html", downloads.path],
      timeout: 180)
    let lines = output.stdoutText.split(separator: "\n").map(String.init)
    #expect(output.status == 0, "\(output.stdoutText)\n\(output.stderrText.suffix(3000))")
    #expect(lines.contains("page live before"))
    let title = try #require(lines.first { $0.hasPrefix("content title=") }, "\(lines)")
    #expect(!title.contains("read=read"), "the content's script read the API: \(title)")
    #expect(!title.contains("add=status 2"), "the content's script added a download: \(title)")
    #expect(lines.contains("content rendered=no"), "\(lines)")
    #expect(lines.contains("page live rows=1"), "the service's own page still works: \(lines)")
    let contents = try await fixture.manager.snapshots()
    #expect(contents.map(\.id) == [id], "nothing was added: \(contents.map(\.url))")
    await fixture.close()
  }

  // Pins: the same, header by header: every content file is sandboxed and `nosniff`; what
  // does not play (HTML here) is a download of a neutral type; media keep their type.
  @Test func contentIsServedSandboxedAndWhatDoesNotPlayAsADownload() async throws {
    let fixture = try await ServiceFixture()
    try Data("<script>alert(1)</script>".utf8).write(to: fixture.origin.file("page.html"))
    let page = try await fixture.download(url: fixture.nginx.url("/page.html"))
    let clip = try await fixture.download("clip.mp4", count: 1000)
    let html = try await Curl.fetch(fixture.url("/content/\(page)/page.html"))
    #expect(html.status == 200)
    #expect(html.headers["content-type"] == "application/octet-stream")
    #expect(html.headers["content-disposition"] == "attachment")
    #expect(html.headers["content-security-policy"] == "sandbox")
    #expect(html.headers["x-content-type-options"] == "nosniff")
    let video = try await Curl.fetch(fixture.url("/content/\(clip)/clip.mp4"))
    #expect(video.status == 200)
    #expect(video.headers["content-type"] == "video/mp4")
    #expect(video.headers["content-disposition"] == nil)
    #expect(video.headers["content-security-policy"] == "sandbox")
    #expect(video.headers["x-content-type-options"] == "nosniff")
    await fixture.close()
  }

  // Pins: `/content/<id>/offline.json` handed out a stream's bookkeeping file (its entry
  // URL and key URLs, which may be signed), and so would part files, range maps and
  // temporary files left in the folder; what a player needs is still served.
  @Test func servesNoneOfAContentsBookkeepingFiles() async throws {
    let fixture = try await ServiceFixture()
    let files = try await HLSFixture.aes128Rotating.make(in: fixture.origin.url)
    let id = try await fixture.download(url: files.url(on: fixture.nginx))
    let folder = try await fixture.manager.snapshot(id: id).fileURL.deletingLastPathComponent()
    #expect(FileManager.default.fileExists(atPath: folder.appending(path: "offline.json").path))
    let leftovers = [
      "s00001.ts.part", "s00001.ts.part.ranges", "index.m3u8.tmp", ".index.m3u8.tmp",
      "cache.fetch", "keys/k9.key.ts.part",
    ]
    for name in leftovers {
      try Data("bookkeeping".utf8).write(to: folder.appending(path: name))
    }
    for name in ["offline.json", ".manifest.json"] + leftovers {
      let reply = try await Curl.fetch(fixture.url("/content/\(id)/\(name)"))
      #expect(reply.status == 404, "\(name): \(reply.status)")
    }
    let playlist = try await Curl.fetch(fixture.url("/content/\(id)/index.m3u8"))
    #expect(playlist.status == 200)
    #expect(try await Curl.fetch(fixture.url("/content/\(id)/index-remote.m3u8")).status == 200)
    let segment = try #require(
      playlist.text.split(separator: "\n").first { !$0.hasPrefix("#") && $0.hasSuffix(".ts") })
    #expect(try await Curl.fetch(fixture.url("/content/\(id)/\(segment)"), ["-I"]).status == 200)
    #expect(
      try await Curl.fetch(fixture.url("/content/\(id)/keys/k0.key.ts"), ["-I"]).status == 200)
    await fixture.close()
  }
}
