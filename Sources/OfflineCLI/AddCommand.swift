import Foundation
import OfflineKit

/// `offline add`: queue URLs for download; prints each content's id.
struct AddCommand: Sendable {
  static let usage =
    "offline [--store <dir>] add <url>... [--id <id>] [--title <title>] [--sha256 <hex>]"
    + " [--priority <n>] [-i <file>] [--variant <v>] [--audio <a>] [--subtitles <s>]"

  static let help = HelpText(
    overview: "Queue URLs for download and print their ids; 'offline run' downloads them.",
    usage: usage,
    arguments: [("<url>", "http or https URLs to queue.")],
    options: [
      ("--id <id>", "A stable id of your choosing (with one URL only)."),
      ("--title <title>", "A title to show in 'offline ls' (with one URL only)."),
      ("--sha256 <hex>", "The SHA-256 the file must have (with one URL only)."),
      ("--priority <n>", "Higher runs first (default 0); equal priorities run in order added."),
      (
        "--connections <n>",
        "Fetch each large file over n connections (default: one, eight"
          + " when one connection is slow on a file of 64 MiB or more)."
      ),
      ("-i, --input <file>", "Read URLs from a file, one per line ('-' for standard input)."),
    ] + StreamOptions.help + [
      ("-h, --help", "Show help information.")
    ],
    footer: "A URL already in the store is not added twice: its id is printed, and it is queued"
      + " again when it is notDownloaded (a suspended one waits for 'offline resume').")

  var urls: [String] = []
  var id: String?
  var title: String?
  var sha256: String?
  var priority = 0
  var input: String?
  var showHelp = false
  var hls = HLSOptions()
  var connections = 0

  static func parse(_ arguments: [String]) throws(UsageError) -> AddCommand {
    var scanner = ArgumentScanner(arguments, usage: usage)
    var command = AddCommand()
    while let item = scanner.next() {
      switch item {
      case .positional(let url): command.urls.append(url)
      case .option(let name, let inline):
        switch name {
        case "--id": command.id = try scanner.value(for: name, inline: inline)
        case "--title": command.title = try scanner.value(for: name, inline: inline)
        case "--sha256": command.sha256 = try scanner.value(for: name, inline: inline)
        case "--priority":
          guard let value = Int(try scanner.value(for: name, inline: inline)) else {
            throw UsageError(message: "--priority takes a whole number.", usage: usage)
          }
          command.priority = value
        case "-i", "--input": command.input = try scanner.value(for: name, inline: inline)
        case "--connections":
          guard let value = Int(try scanner.value(for: name, inline: inline)), value > 0 else {
            throw UsageError(message: "--connections takes a whole number above 0.", usage: usage)
          }
          command.connections = value
        case _ where StreamOptions.names.contains(name):
          try StreamOptions.parse(
            name, try scanner.value(for: name, inline: inline), into: &command.hls, usage: usage)
        case "-h", "--help":
          command.showHelp = true
          return command
        default: throw scanner.unknown(name)
        }
      }
    }
    if command.input == nil && command.urls.isEmpty {
      throw UsageError(message: "Missing URL.", usage: usage)
    }
    if (command.id != nil || command.title != nil || command.sha256 != nil)
      && (command.urls.count != 1 || command.input != nil)
    {
      throw UsageError(message: "--id, --title and --sha256 go with one URL.", usage: usage)
    }
    if let sha = command.sha256, sha.count != 64 || !sha.allSatisfy(\.isHexDigit) {
      throw UsageError(message: "--sha256 takes 64 hexadecimal digits.", usage: usage)
    }
    return command
  }

  static func run(_ command: AddCommand, context: CommandContext) async -> Int32 {
    let console = context.console
    if command.showHelp {
      console.out(help.render())
      return ExitCode.success
    }
    var texts = command.urls
    if let input = command.input {
      guard let lines = readLines(input) else {
        console.err("Error: cannot read \(input).")
        return ExitCode.failure
      }
      texts += lines
    }
    var sources: [OfflineSource] = []
    for text in texts {
      guard let url = URL(string: text),
        ["http", "https"].contains(url.scheme?.lowercased() ?? ""),
        url.host() != nil
      else {
        console.err("Error: '\(text)' is not an http or https URL.")
        return ExitCode.usage
      }
      sources.append(OfflineSource(url: url, id: command.id, title: command.title))
    }
    do throws(OfflineError) {
      let manager = try ManagerAccess.open(context)
      let config = try DownloadConfig(
        expectedSHA256: command.sha256, priority: command.priority, hls: command.hls,
        connections: ConnectionCount.choice(command.connections))
      let contents = try await manager.add(sources, config: config)
      console.out(contents.map(\.id).joined(separator: "\n"))
      return ExitCode.success
    } catch {
      return ManagerAccess.fail(error, console)
    }
  }

  private static func readLines(_ path: String) -> [String]? {
    let data =
      path == "-"
      ? FileHandle.standardInput.readDataToEndOfFile() : FileManager.default.contents(atPath: path)
    guard let data, let text = String(data: data, encoding: .utf8) else { return nil }
    return text.split(whereSeparator: \.isNewline)
      .map { $0.trimmingCharacters(in: .whitespaces) }
      .filter { !$0.isEmpty && !$0.hasPrefix("#") }
  }
}
