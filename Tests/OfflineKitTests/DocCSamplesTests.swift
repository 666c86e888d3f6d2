import Foundation
import TestTiming
import Testing

/// The DocC articles' Swift samples are the bodies of functions in `Examples/`, which every
/// build compiles (issue 12, item 6): a sample that stops compiling fails the build, one
/// edited in only one place fails here.
@Suite(.timed) struct DocCSamplesTests {
  static let catalog = SampleBlocks.root.appending(path: "Sources/OfflineKit/OfflineKit.docc")

  static func articles() throws -> [URL] {
    try FileManager.default.contentsOfDirectory(atPath: catalog.path)
      .filter { $0.hasSuffix(".md") }.sorted()
      .map { catalog.appending(path: $0) }
  }

  @Test func everyArticleSampleIsTheBodyOfACompiledExample() throws {
    let examples = try SampleBlocks.examples()
    var count = 0
    for article in try Self.articles() {
      for block in try SampleBlocks.swiftBlocks(in: article) {
        count += 1
        let problem = SampleBlocks.mismatch(of: block, in: examples)
        #expect(problem == nil, "\(article.lastPathComponent): \(problem ?? "")")
      }
    }
    #expect(count >= 4, "the articles show \(count) samples")
  }

  /// The catalog has the articles the landing page links, and each is linked.
  @Test func theLandingPageLinksEveryArticle() throws {
    let landing = try String(
      contentsOf: Self.catalog.appending(path: "OfflineKit.md"), encoding: .utf8)
    let names = try Self.articles().map { $0.deletingPathExtension().lastPathComponent }
      .filter { $0 != "OfflineKit" }
    #expect(
      Set(names) == ["GettingStarted", "StateTable", "HLSOffline", "TheCache", "CrashSafety"])
    for name in names { #expect(landing.contains("<doc:\(name)>"), "\(name) is linked") }
  }
}
