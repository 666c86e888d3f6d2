import Foundation
import OfflineHTTP
import OfflineKit

/// `offline limit RATE|none`: change the cap over all the queue's running downloads, that of
/// a `run` under way in another terminal included (within a second, as a pause).
struct LimitCommand: Command {
  /// A cap as `limit` takes it: a rate, or `none` (`.some(nil)`: no cap).
  static let rate: Argument<QueueRate> = .required(
    "rate",
    help: "At most this many bytes per second, all running downloads together (500k, 2M, 1G:"
      + " powers of 1024, as curl), or 'none' for no cap.",
    parser: ValueParser("a rate such as 500k, 2M or 1G, or none") { text in
      text == "none" ? QueueRate(rate: nil) : (try? ByteRate(parsing: text)).map(QueueRate.init)
    })

  static let configuration = CommandConfiguration(
    name: "limit",
    abstract: "Cap the bytes per second of all the queue's running downloads together.",
    discussion: "A running 'offline run' applies it within a second; later runs start with it"
      + " unless given --limit-rate.",
    arguments: [rate], command: Self.self)

  let rate: ByteRate?

  init(_ arguments: ParsedArguments) {
    rate = arguments[Self.rate].rate
  }

  func run(_ context: CommandContext) async -> Int32 {
    let command = self
    return await ManagerAccess.using(context) { manager throws(OfflineError) in
      try await manager.setRateLimit(command.rate, keep: true)
      context.console.err(
        command.rate.map { "The queue's downloads together receive at most \($0)." }
          ?? "The queue's downloads are not capped.")
      return ExitCode.success
    }
  }
}
