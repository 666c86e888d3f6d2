import Foundation

/// The process's own command line, as the kernel shows it to every local user.
enum ProcessArguments {
  /// Overwrites, in the memory `argv` points at (which `/proc/<pid>/cmdline` and `ps`
  /// read), every argument that is one of `secrets`, and the value part of every
  /// `--name=secret`, with spaces, as curl does with its `-u` argument. The arguments keep
  /// their lengths; nothing else changes. Call it once the arguments are parsed: Swift's
  /// `CommandLine.arguments` keeps its own copies.
  static func blank(_ secrets: [String]) {
    let wanted = Set(secrets.filter { !$0.isEmpty })
    guard !wanted.isEmpty else { return }
    let argv = CommandLine.unsafeArgv
    for index in 1..<Int(CommandLine.argc) {
      guard let argument = argv[index] else { continue }
      let text = String(cString: argument)
      let start: Int
      if wanted.contains(text) {
        start = 0
      } else if text.hasPrefix("--"), let equals = text.firstIndex(of: "="),
        wanted.contains(String(text[text.index(after: equals)...]))
      {
        start = text.utf8.distance(from: text.startIndex, to: equals) + 1
      } else {
        continue
      }
      let length = strlen(argument)
      memset(argument + start, Int32(UInt8(ascii: " ")), length - start)
    }
  }
}
