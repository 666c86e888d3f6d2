import Foundation
import TestTiming
import Testing

/// The overview article's Swift samples are the bodies of functions in
/// `OverviewSamples.swift`, which the test target compiles: a sample that stops compiling
/// fails the build, one edited in only one place fails here.
@Suite(.timed) struct DocCSampleTests {
  static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
  static let article = folder.appending(path: "../../Sources/Metalink/Metalink.docc/Metalink.md")

  /// The lines of each ```swift block of the article.
  static func swiftBlocks() throws -> [[String]] {
    let text = try String(contentsOf: article, encoding: .utf8)
    var blocks: [[String]] = []
    var current: [String]?
    for line in text.components(separatedBy: "\n") {
      if line == "```swift" {
        current = []
      } else if line == "```", let block = current {
        blocks.append(block)
        current = nil
      } else {
        current?.append(line)
      }
    }
    return blocks
  }

  @Test func everySampleIsTheBodyOfACompiledFunctionWithItsImports() throws {
    let samples = try String(
      contentsOf: Self.folder.appending(path: "OverviewSamples.swift"), encoding: .utf8)
    let blocks = try Self.swiftBlocks()
    #expect(blocks.count == 2)
    for block in blocks {
      let body = block.filter { !$0.hasPrefix("import ") }.drop { $0.isEmpty }
        .map { $0.isEmpty ? "" : "  " + $0 }.joined(separator: "\n")
      #expect(samples.contains(body + "\n}"), "no function's body is the sample \(block[0])")
      for line in block where line.hasPrefix("import ") {
        #expect(samples.contains(line + "\n"), "OverviewSamples.swift lacks \(line)")
      }
    }
  }

  @Test func theSamplesRunOnAMirrorNetworksDescription() throws {
    try overviewReadingAMetalink(data: Data(Metalink4DocumentTests.redirector.utf8))
    overviewFromTheFirstResponse(
      linkFields: MirrorLinksTests.redirectorFields,
      headers: [("Repr-Digest", "sha-256=:\(HTTPDigestsTests.sha256):")],
      responseURL: URL(string: "https://download.example.org/distro/12/disk.iso")!)
  }
}
