import Foundation

/// A command's `--help` page, made from its declaration, in the layout of Swift's argument
/// parser: OVERVIEW, USAGE, ARGUMENTS, OPTIONS, SUBCOMMANDS, then its discussion.
struct HelpText: Sendable {
  /// The command the page is about.
  let path: CommandPath

  /// The page, without a final newline.
  func render() -> String {
    let command = path.command
    var lines = Self.wrapped("OVERVIEW: \(command.abstract)")
    lines += ["", UsageLine.render(path, prefix: "USAGE: ")]
    let sections: [(String, [(String, String)])] = [
      ("ARGUMENTS", command.arguments.map { ("<\($0.name)>", $0.help) }),
      ("OPTIONS", command.listedOptions.map { ($0.label, $0.fullHelp) }),
      ("SUBCOMMANDS", command.subcommands.map { ($0.name, $0.abstract) }),
    ]
    for (title, rows) in sections where !rows.isEmpty {
      lines += ["", "\(title):"]
      for (name, text) in rows { lines += Self.row(name, text) }
    }
    if let discussion = command.discussion {
      lines.append("")
      for paragraph in Self.paragraphs(discussion) { lines += Self.wrapped(paragraph) }
    }
    if !command.subcommands.isEmpty {
      let below = path.levels.dropFirst().map { $0.name + " " }.joined()
      lines += ["", "See '\(path.levels[0].name) help \(below)<subcommand>' for detailed help."]
    }
    return lines.joined(separator: "\n")
  }

  /// The discussion's paragraphs: lines that start at the margin run together up to a blank
  /// or an indented line (so a source line break never shows in the page); an indented line
  /// (an example) and a blank line stand alone.
  static func paragraphs(_ discussion: String) -> [String] {
    var paragraphs: [String] = []
    var running: String?
    for line in discussion.split(separator: "\n", omittingEmptySubsequences: false) {
      if !line.isEmpty, !line.hasPrefix(" ") {
        running = running.map { $0 + " " + line } ?? String(line)
        continue
      }
      if let text = running { paragraphs.append(text) }
      running = nil
      paragraphs.append(String(line))
    }
    if let text = running { paragraphs.append(text) }
    return paragraphs
  }

  /// A line of the discussion, wrapped at 80 columns under its own indentation.
  static func wrapped(_ line: String) -> [String] {
    let indent = String(line.prefix { $0 == " " })
    var lines: [String] = []
    var current = indent
    for word in line.split(separator: " ") {
      if current.count > indent.count, current.count + 1 + word.count > 80 {
        lines.append(current)
        current = indent
      }
      current += (current.count > indent.count ? " " : "") + word
    }
    lines.append(current)
    return lines
  }

  /// A name in a 26-column gutter, then its text wrapped at 80 columns.
  static func row(_ name: String, _ text: String) -> [String] {
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
