import Foundation
import OfflineHTTP
import OfflineKit

/// `offline cache get`: the local path of a URL's file, downloaded unless cached.
struct CacheGetCommand: Command {
  static let url: Argument<String> = .required(
    "url", noun: "URL", help: "The http or https URL.", parser: .string)
  static let output: Option<String?> = .value(
    "-o", "--output", valueName: "path",
    help: "Copy the file to this path instead of printing its path.", parser: .file)
  static let key: Option<String?> = .value(
    "--key", valueName: "key", help: "Cache under this key instead of the URL (for signed URLs).",
    parser: .string)

  static let configuration = CommandConfiguration(
    name: "get", abstract: "Print the local path of a URL's file, downloading it unless cached.",
    discussion: "A stale file is revalidated with the server; offline, it is served anyway with"
      + " a warning on standard error.",
    arguments: [url], options: [output, key] + RequestOptionArguments.all, command: Self.self)

  let url: String
  let output: String?
  let key: String?
  let requestOptions: RequestOptions

  init(_ arguments: ParsedArguments) throws(UsageError) {
    url = arguments[Self.url]
    output = arguments[Self.output]
    key = arguments[Self.key]
    requestOptions = try RequestOptionArguments.requestOptions(from: arguments)
  }

  func run(_ context: CommandContext) async throws(UsageError) -> Int32 {
    guard let parsed = URL(string: url) else {
      throw UsageError("'\(url)' is not an http or https URL.")
    }
    let configuration = FileCache.Configuration(requestOptions: requestOptions)
    return await CacheCommand.using(context, configuration: configuration) {
      cache throws(FileCache.Error) in
      try await get(parsed, cache: cache, console: context.console)
    }
  }

  private func get(_ url: URL, cache: FileCache, console: Console)
    async throws(FileCache.Error) -> Int32
  {
    let loaded = try await cache.fileURL(for: url, key: key)
    await cache.flushUsage()
    if loaded.source == .staleOffline {
      console.err("Warning: the network is unreachable; served a stale copy.")
    }
    guard let output else {
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
