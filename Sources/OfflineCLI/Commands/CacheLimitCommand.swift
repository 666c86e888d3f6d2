import OfflineKit

/// `offline cache limit`: the cache's size limit, saved in the store.
struct CacheLimitCommand: Command {
  static let size: Argument<ByteCount?> = .required(
    "size", noun: "size",
    help: "Bytes, or with a unit: 512K, 100M, 1G (powers of 1024); 'none' forgets the saved"
      + " limit (back to 256 MiB).",
    parser: ValueParser(
      "a size (bytes, or 512K, 100M, 1G) or 'none'", completion: .values(["none"])
    ) { text in text == "none" ? .some(nil) : ByteCount(parsing: text).map { .some($0) } })

  static let configuration = CommandConfiguration(
    name: "limit",
    abstract: "Set the cache's size limit, evicting least recently used files to fit.",
    discussion: "The limit is saved in the store; every program using the store's cache"
      + " without a limit of its own follows it.",
    arguments: [size], command: Self.self)

  let limit: ByteCount?

  init(_ arguments: ParsedArguments) { limit = arguments[Self.size] }

  func run(_ context: CommandContext) async -> Int32 {
    await CacheCommand.using(context) { cache throws(FileCache.Error) in
      try await cache.setSizeLimit(limit?.bytes)
      let stats = try await cache.statistics()
      context.console.err(
        "Cache limit: \(ByteCount.format(stats.sizeLimit)); the cache holds"
          + " \(ByteCount.format(stats.bytes)) in \(stats.entryCount) files.")
      return ExitCode.success
    }
  }
}
