/// A command's usage line, made from its declaration and those above it:
/// `offline [--store <dir>] get <url> [--output <path>] …`. Shown in `--help`, after a usage
/// error and in the man page, so it can never leave an option out.
enum UsageLine {
  /// The words of the line: each is one name, argument or bracketed option.
  static func words(_ path: CommandPath) -> [String] {
    var words: [String] = []
    for (index, level) in path.levels.enumerated() {
      words.append(level.name)
      let isLast = index == path.levels.count - 1
      if isLast { words += level.arguments.map(\.usage) }
      // Above the command, only the options that take a value (`--store`), as they set
      // something for it; flags such as `--version` are for that level alone.
      for option in level.options where isLast || !option.isFlag {
        words.append(usage(of: option))
      }
      if isLast && !level.subcommands.isEmpty { words.append("<subcommand>") }
    }
    return words
  }

  /// `[--output <path>]`, `[--force]` or `[--header <line> ...]`; a required option without
  /// the brackets (`--output <file>`).
  static func usage(of option: OptionSpec) -> String {
    let value = option.valueName.map { " <\($0)>" } ?? ""
    let text = "\(option.key)\(value)\(option.isRepeatable ? " ..." : "")"
    return option.isRequired ? text : "[\(text)]"
  }

  /// The line after `prefix`, wrapped at `width` columns under its first word.
  static func render(_ path: CommandPath, prefix: String, width: Int = 80) -> String {
    let indent = String(repeating: " ", count: prefix.count)
    var lines: [String] = []
    var current = prefix
    for word in words(path) {
      if current.count > indent.count, current.count + 1 + word.count > width {
        lines.append(current)
        current = indent + word
      } else {
        current += (current.count > indent.count ? " " : "") + word
      }
    }
    lines.append(current)
    return lines.joined(separator: "\n")
  }
}
