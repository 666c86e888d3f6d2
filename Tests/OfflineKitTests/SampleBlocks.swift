import Foundation

/// The Swift code blocks of the repository's documents, and the compiled examples they must
/// match (the `offline-examples` target in `Examples/`).
enum SampleBlocks {
  /// The repository's root folder.
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

  /// The lines of each ```swift block of the Markdown file at `url`.
  static func swiftBlocks(in url: URL) throws -> [[String]] {
    let text = try String(contentsOf: url, encoding: .utf8)
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

  /// The text of every Swift file in `Examples/`.
  static func examples() throws -> [String] {
    let folder = root.appending(path: "Examples")
    return try FileManager.default.contentsOfDirectory(atPath: folder.path)
      .filter { $0.hasSuffix(".swift") }
      .map { try String(contentsOf: folder.appending(path: $0), encoding: .utf8) }
  }

  /// What is wrong with `block` as a compiled sample: nil when some example's function body
  /// is exactly its lines (indented by two spaces) and imports each module it imports.
  static func mismatch(of block: [String], in examples: [String]) -> String? {
    let imports = block.filter { $0.hasPrefix("import ") }
    let body = block.filter { !$0.hasPrefix("import ") }
      .drop { $0.isEmpty }
      .map { $0.isEmpty ? "" : "  " + $0 }
      .joined(separator: "\n")
    guard let match = examples.first(where: { $0.contains(body) }) else {
      return "no example holds the sample starting \(block.first ?? "")"
    }
    for line in imports where !match.contains(line + "\n") {
      return "the example of the sample starting \(block.first ?? "") lacks \(line)"
    }
    return nil
  }
}
