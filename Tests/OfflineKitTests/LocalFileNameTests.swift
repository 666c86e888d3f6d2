import Foundation
import OfflineKit
import TestTiming
import Testing

@Suite(.timed) struct LocalFileNameTests {
  @Test func usesTheLastPathComponent() {
    #expect(LocalFileName.from(URL(string: "http://h/a/b/movie.mp4?token=x")!) == "movie.mp4")
  }

  @Test func anEncodedTraversalStaysOneHarmlessName() {
    let url = URL(string: "http://h/%2e%2e%2f%2e%2e%2fetc%2fpasswd")!
    let name = LocalFileName.from(url)
    #expect(!name.contains("/"))
    #expect(name != ".." && name != ".")
  }

  @Test func dotsAndEmptyPathsGetTheFallbackName() {
    #expect(LocalFileName.from(URL(string: "http://h/")!) == LocalFileName.fallback)
    #expect(LocalFileName.from(URL(string: "http://h")!) == LocalFileName.fallback)
    #expect(LocalFileName.sanitized("..") == LocalFileName.fallback)
    #expect(LocalFileName.sanitized(".") == LocalFileName.fallback)
  }

  @Test func controlCharactersAndBackslashesAreReplaced() {
    #expect(LocalFileName.sanitized("a\u{1}b\\c\nd") == "a_b_c_d")
  }

  @Test func longNamesAreCutKeepingTheExtension() {
    let name = LocalFileName.sanitized(String(repeating: "x", count: 400) + ".mp4")
    #expect(name.utf8.count <= LocalFileName.maximumLength)
    #expect(name.hasSuffix(".mp4"))
  }

  @Test func aStreamFolderIsNamedForItsManifestUnlessTheNameSaysNothing() {
    func folder(_ url: String) -> String { HLSDownload.folderName(for: URL(string: url)!) }
    #expect(folder("https://cdn.example/show/master.m3u8") == "show")
    #expect(folder("https://cdn.example/show/Index.M3U8") == "show")
    #expect(folder("https://cdn.example/show/episode-1.m3u8") == "episode-1")
    #expect(folder("https://cdn.example/master.m3u8") == "master")
    #expect(folder("https://cdn.example/a%2F..%2Fb/index.m3u8") == "a_.._b")
    #expect(
      DASHDownload.folderName(for: URL(string: "https://cdn.example/film/manifest.mpd")!) == "film")
    #expect(
      DASHDownload.folderName(for: URL(string: "https://cdn.example/film/trailer.mpd")!)
        == "trailer")
  }
}
