/// A command's `--help` page in the layout of Swift's argument parser: OVERVIEW, USAGE,
/// ARGUMENTS, OPTIONS, SUBCOMMANDS.
struct HelpText: Sendable {
  let overview: String
  let usage: String
  let arguments: [(String, String)]
  let options: [(String, String)]
  var subcommands: [(String, String)] = []
  var footer: String?

  func render() -> String {
    var lines = ["OVERVIEW: \(overview)", "", "USAGE: \(usage)"]
    for (title, rows) in [
      ("ARGUMENTS", arguments), ("OPTIONS", options), ("SUBCOMMANDS", subcommands),
    ]
    where !rows.isEmpty {
      lines += ["", "\(title):"]
      for (name, text) in rows { lines += Self.row(name, text) }
    }
    if let footer { lines += ["", footer] }
    return lines.joined(separator: "\n")
  }

  /// A name in a 24-column gutter, then its text wrapped at 80 columns.
  private static func row(_ name: String, _ text: String) -> [String] {
    let gutter = 26
    var lines: [String] = []
    var current = "  " + name
    if current.count >= gutter - 1 {
      lines.append(current)
      current = ""
    }
    current = current.padding(toLength: gutter, withPad: " ", startingAt: 0)
    var width = gutter
    for word in text.split(separator: " ") {
      if width + word.count + 1 > 80, width > gutter {
        lines.append(current)
        current = String(repeating: " ", count: gutter)
        width = gutter
      }
      current += (width > gutter ? " " : "") + word
      width += word.count + (width > gutter ? 1 : 0)
    }
    lines.append(current)
    return lines
  }
}
