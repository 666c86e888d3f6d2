import OfflineKit

/// `offline cache clear`: every cached file deleted.
struct CacheClearCommand: Command {
  static let configuration = CommandConfiguration(
    name: "clear", abstract: "Delete every cached file (offline content is kept).",
    command: Self.self)

  init(_ arguments: ParsedArguments) {}

  func run(_ context: CommandContext) async -> Int32 {
    await CacheCommand.using(context) { cache throws(FileCache.Error) in
      let removed = try await cache.removeAll()
      context.console.err("Removed \(removed) cached file\(removed == 1 ? "" : "s").")
      return ExitCode.success
    }
  }
}
