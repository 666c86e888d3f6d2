import Foundation
import Testing

/// The README's Swift samples are the bodies of the functions in `Examples/`, which every
/// build compiles: a sample that stops compiling fails the build, one edited in only one
/// place fails here.
@Suite struct ReadmeSamplesTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

  /// The ```swift blocks of the README.
  static func readmeBlocks() throws -> [[String]] {
    let text = try String(contentsOf: root.appending(path: "README.md"), encoding: .utf8)
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

  @Test func everyReadmeSampleIsTheBodyOfACompiledExample() throws {
    let folder = Self.root.appending(path: "Examples")
    let examples = try FileManager.default.contentsOfDirectory(atPath: folder.path)
      .filter { $0.hasSuffix(".swift") }
      .map { try String(contentsOf: folder.appending(path: $0), encoding: .utf8) }
    let blocks = try Self.readmeBlocks()
    #expect(blocks.count >= 2)
    for block in blocks {
      let imports = block.filter { $0.hasPrefix("import ") }
      let body = block.filter { !$0.hasPrefix("import ") }
        .drop { $0.isEmpty }
        .map { $0.isEmpty ? "" : "  " + $0 }
        .joined(separator: "\n")
      let match = examples.first { $0.contains(body) }
      #expect(match != nil, "no example holds the README sample starting \(block.first ?? "")")
      for line in imports { #expect(match?.contains(line + "\n") == true, "\(line)") }
    }
  }
}
