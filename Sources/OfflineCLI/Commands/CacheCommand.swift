import Foundation
import OfflineHTTP
import OfflineKit

/// `offline cache`: the store's cache of small files; its subcommands do the work.
struct CacheCommand: Command {
  static let configuration = CommandConfiguration(
    name: "cache",
    abstract: "Cache-or-download for small files, size-limited, least recently used out first.",
    discussion: "Files live in <store>/cache, named by a hash of the URL. Offline content"
      + " ('offline add') is served from its own file and never evicted.",
    subcommands: [
      CacheGetCommand.configuration, CacheListCommand.configuration,
      CacheStatsCommand.configuration, CacheClearCommand.configuration,
      CacheLimitCommand.configuration,
    ],
    command: Self.self)

  init(_ arguments: ParsedArguments) {}

  func run(_ context: CommandContext) async throws(UsageError) -> Int32 {
    throw UsageError("Missing subcommand.")
  }

  /// Opens the store's cache and runs `body` on it; a cache error is printed and exits 1.
  static func using(
    _ context: CommandContext, configuration: FileCache.Configuration = .init(),
    _ body: (FileCache) async throws(FileCache.Error) -> Int32
  ) async -> Int32 {
    do throws(FileCache.Error) {
      return try await body(
        try FileCache(
          store: context.storeDirectory, configuration: configuration,
          // Proxy and CA variables come from the run's environment, not the process's.
          transport: CurlTransport(
            configuration: .init(environment: CurlEnvironment(context.host.environment)))))
    } catch {
      context.console.err("Error: \(error)")
      return ExitCode.failure
    }
  }
}
