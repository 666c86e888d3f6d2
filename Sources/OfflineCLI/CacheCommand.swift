import Foundation
import OfflineHTTP
import OfflineKit

/// `offline cache`: the store's cache of small files: get, ls, stats, clear, limit.
struct CacheCommand: Sendable {
  enum Action: String, CaseIterable, Sendable {
    case get, ls, stats, clear, limit

    var abstract: String {
      switch self {
      case .get: "Print the local path of a URL's file, downloading it unless cached."
      case .ls: "List the cached files, most recently used first."
      case .stats: "Show the cache's size, limit and entries, and the store's offline content."
      case .clear: "Delete every cached file (offline content is kept)."
      case .limit: "Set the cache's size limit, evicting least recently used files to fit."
      }
    }
  }

  static let usage = "offline [--store <dir>] cache <get|ls|stats|clear|limit> ..."

  static let help = HelpText(
    overview: "Cache-or-download for small files, size-limited, least recently used out first.",
    usage: usage,
    arguments: [],
    options: [("-h, --help", "Show help information.")],
    subcommands: Action.allCases.map { ($0.rawValue, $0.abstract) },
    footer: "Files live in <store>/cache, named by a hash of the URL. Offline content"
      + " ('offline add') is served from its own file and never evicted.")

  static func actionHelp(_ action: Action) -> HelpText {
    switch action {
    case .get:
      HelpText(
        overview: action.abstract,
        usage: "offline [--store <dir>] cache get <url> [-o <path>] [--key <key>]",
        arguments: [("<url>", "The http or https URL.")],
        options: [
          ("-o, --output <path>", "Copy the file to this path instead of printing its path."),
          ("--key <key>", "Cache under this key instead of the URL (for signed URLs)."),
        ] + RequestOptionArguments.help + [
          ("-h, --help", "Show help information.")
        ],
        footer: "A stale file is revalidated with the server; offline, it is served anyway"
          + " with a warning on standard error.")
    case .ls:
      HelpText(
        overview: action.abstract, usage: "offline [--store <dir>] cache ls [--json]",
        arguments: [],
        options: [
          ("--json", "Print a JSON array (url, key, path, size, lastUsedAt, validatedAt, stale)."),
          ("-h, --help", "Show help information."),
        ])
    case .stats:
      HelpText(
        overview: action.abstract, usage: "offline [--store <dir>] cache stats [--json]",
        arguments: [],
        options: [
          ("--json", "Print one JSON object."), ("-h, --help", "Show help information."),
        ])
    case .clear:
      HelpText(
        overview: action.abstract, usage: "offline [--store <dir>] cache clear", arguments: [],
        options: [("-h, --help", "Show help information.")])
    case .limit:
      HelpText(
        overview: action.abstract, usage: "offline [--store <dir>] cache limit <size|none>",
        arguments: [
          (
            "<size>",
            "Bytes, or with a unit: 512K, 100M, 1G (powers of 1024); 'none' forgets the saved"
              + " limit (back to 256 MiB)."
          )
        ],
        options: [("-h, --help", "Show help information.")],
        footer: "The limit is saved in the store; every program using the store's cache"
          + " without a limit of its own follows it.")
    }
  }

  var action: Action?
  var arguments: [String] = []
  var output: String?
  var key: String?
  var json = false
  var showHelp = false
  var requestOptions = RequestOptions()

  static func parse(_ arguments: [String]) throws(UsageError) -> CacheCommand {
    var command = CacheCommand()
    var rest = arguments
    guard let first = rest.first else { throw UsageError(message: "Missing action.", usage: usage) }
    if first == "-h" || first == "--help" {
      command.showHelp = true
      return command
    }
    guard let action = Action(rawValue: first) else {
      throw UsageError(message: "Unknown cache action '\(first)'.", usage: usage)
    }
    rest.removeFirst()
    command.action = action
    let actionUsage = actionHelp(action).usage
    var scanner = ArgumentScanner(rest, usage: actionUsage)
    while let item = scanner.next() {
      switch item {
      case .positional(let text): command.arguments.append(text)
      case .option(let name, let inline):
        switch name {
        case "-o" where action == .get, "--output" where action == .get:
          command.output = try scanner.value(for: name, inline: inline)
        case _ where action == .get && RequestOptionArguments.names.contains(name):
          try RequestOptionArguments.consume(
            name, inline: inline, from: &scanner, into: &command.requestOptions, usage: actionUsage)
        case "--key" where action == .get:
          command.key = try scanner.value(for: name, inline: inline)
        case "--json" where action == .ls || action == .stats: command.json = true
        case "-h", "--help":
          command.showHelp = true
          return command
        default: throw scanner.unknown(name)
        }
      }
    }
    let wanted = [.get, .limit].contains(action) ? 1 : 0
    guard command.arguments.count == wanted else {
      let message =
        command.arguments.count < wanted
        ? "Missing \(action == .limit ? "size" : "URL")."
        : "Unexpected argument '\(command.arguments[wanted])'."
      throw UsageError(message: message, usage: actionUsage)
    }
    if action == .limit, command.arguments[0] != "none", ByteSize.parse(command.arguments[0]) == nil
    {
      throw UsageError(
        message: "'\(command.arguments[0])' is not a size (bytes, or 512K, 100M, 1G).",
        usage: actionUsage)
    }
    return command
  }

  static func run(_ command: CacheCommand, context: CommandContext) async -> Int32 {
    let console = context.console
    guard let action = command.action, !command.showHelp else {
      console.out((command.action.map(actionHelp) ?? help).render())
      return ExitCode.success
    }
    do throws(FileCache.Error) {
      let cache = try FileCache(
        store: context.storeDirectory,
        configuration: FileCache.Configuration(requestOptions: command.requestOptions))
      switch action {
      case .get: return try await get(command, cache: cache, console: console)
      case .ls:
        let entries = try await cache.entries()
        console.out(command.json ? CacheListing.json(entries) : CacheListing.table(entries))
      case .stats:
        let stats = try await cache.statistics()
        console.out(command.json ? CacheListing.json(stats) : CacheListing.text(stats))
      case .clear:
        let removed = try await cache.removeAll()
        console.err("Removed \(removed) cached file\(removed == 1 ? "" : "s").")
      case .limit:
        let bytes = command.arguments[0] == "none" ? nil : ByteSize.parse(command.arguments[0])
        try await cache.setSizeLimit(bytes)
        let stats = try await cache.statistics()
        console.err(
          "Cache limit: \(ByteCount.format(stats.sizeLimit)); the cache holds"
            + " \(ByteCount.format(stats.bytes)) in \(stats.entryCount) files.")
      }
      return ExitCode.success
    } catch {
      console.err("Error: \(error)")
      return ExitCode.failure
    }
  }

  private static func get(_ command: CacheCommand, cache: FileCache, console: Console)
    async throws(FileCache.Error) -> Int32
  {
    guard let url = URL(string: command.arguments[0]) else {
      console.err("Error: '\(command.arguments[0])' is not an http or https URL.")
      return ExitCode.usage
    }
    let loaded = try await cache.fileURL(for: url, key: command.key)
    await cache.flushUsage()
    if loaded.source == .staleOffline {
      console.err("Warning: the network is unreachable; served a stale copy.")
    }
    guard let output = command.output else {
      console.out(loaded.value.path)
      return ExitCode.success
    }
    // Copy beside the target, then rename: the target is never seen half-written.
    let target = URL(fileURLWithPath: output)
    let copy = target.deletingLastPathComponent().appending(path: ".\(UUID().uuidString).tmp")
    do {
      try FileManager.default.copyItem(at: loaded.value, to: copy)
      guard rename(copy.path, target.path) == 0 else {
        throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: target.path])
      }
    } catch {
      unlink(copy.path)
      console.err("Error: cannot copy \(loaded.value.path) to \(output).")
      return ExitCode.failure
    }
    return ExitCode.success
  }
}

/// Sizes as people write them: `1048576`, `512K`, `100M`, `1G`, `10MiB` (powers of 1024).
enum ByteSize {
  static func parse(_ text: String) -> Int64? {
    var digits = text.trimmingCharacters(in: .whitespaces).uppercased()
    for suffix in ["IB", "B"] where digits.hasSuffix(suffix) { digits.removeLast(suffix.count) }
    var shift: Int64 = 0
    if let unit = digits.last, let index = ["K", "M", "G", "T"].firstIndex(of: String(unit)) {
      shift = Int64(10 * (index + 1))
      digits.removeLast()
    }
    guard let value = Double(digits), value >= 0, value.isFinite else { return nil }
    let bytes = value * Double(Int64(1) << shift)
    return bytes < 9e18 ? Int64(bytes) : nil
  }
}
