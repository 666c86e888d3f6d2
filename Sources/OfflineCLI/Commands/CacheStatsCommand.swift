import OfflineKit

/// `offline cache stats`: the cache's size, limit and entries.
struct CacheStatsCommand: Command {
  static let json: Option<Bool> = .flag("--json", help: "Print one JSON object.")

  static let configuration = CommandConfiguration(
    name: "stats",
    abstract: "Show the cache's size, limit and entries, and the store's offline content.",
    options: [json], command: Self.self)

  let json: Bool

  init(_ arguments: ParsedArguments) { json = arguments[Self.json] }

  func run(_ context: CommandContext) async -> Int32 {
    await CacheCommand.using(context) { cache throws(FileCache.Error) in
      let stats = try await cache.statistics()
      context.console.out(json ? CacheListing.json(stats) : CacheListing.text(stats))
      return ExitCode.success
    }
  }
}
