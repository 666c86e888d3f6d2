import OfflineKit

/// `offline cache ls`: the cached files, most recently used first.
struct CacheListCommand: Command {
  static let json: Option<Bool> = .flag(
    "--json", help: "Print a JSON array (url, key, path, size, lastUsedAt, validatedAt, stale).")

  static let configuration = CommandConfiguration(
    name: "ls", abstract: "List the cached files, most recently used first.", options: [json],
    command: Self.self)

  let json: Bool

  init(_ arguments: ParsedArguments) { json = arguments[Self.json] }

  func run(_ context: CommandContext) async -> Int32 {
    await CacheCommand.using(context) { cache throws(FileCache.Error) in
      let entries = try await cache.entries()
      context.console.out(json ? CacheListing.json(entries) : CacheListing.table(entries))
      return ExitCode.success
    }
  }
}
