import Foundation
import OfflineHTTP
import OfflineKit

/// `offline add`: queue URLs for download; prints each content's id.
struct AddCommand: Command {
  static let urls: Argument<[String]> = .repeating(
    "url", noun: "URL", help: "http or https URLs to queue.", parser: .string)
  static let id: Option<String?> = .value(
    "--id", valueName: "id", help: "A stable id of your choosing (with one URL only).",
    parser: .string)
  static let title: Option<String?> = .value(
    "--title", valueName: "title", help: "A title to show in 'offline ls' (with one URL only).",
    parser: .string)
  static let sha256: Option<String?> = .value(
    "--sha256", valueName: "hex", help: "The SHA-256 the file must have (with one URL only).",
    parser: .sha256)
  static let priority: Option<Int> = .value(
    "--priority", valueName: "n", help: "Higher runs first; equal priorities run in order added.",
    default: "0", parser: .integer())
  static let connections: Option<Int?> = .value(
    "--connections", valueName: "n",
    help: "Fetch each large file over n connections (default: one, eight when one connection"
      + " is slow on a file of 64 MiB or more).",
    parser: .integer(atLeast: 1))
  static let mirror: Option<[URL]> = .repeating(
    "--mirror", valueName: "url",
    help: "Another http or https URL of the same file (with one URL only; repeat for more),"
      + " kept with the content: 'offline run' checks each against the URL's length before"
      + " using its bytes and spreads ranges over those that agree.",
    parser: .httpURL)
  static let peer: Option<[URL]> = .repeating(
    "--peer", valueName: "url",
    help: "A nearby 'offline serve' (http://host:8380, with ?token=TOKEN as it printed; repeat"
      + " for more), kept with the contents: 'offline run' asks it for each file by its URL"
      + " before the origin and takes what it holds as a mirror preferred to the origin,"
      + " checked like any mirror's. A peer that is down is named; one that holds nothing is"
      + " passed over; with the origin down or without ranges, a peer serves the whole file.",
    parser: .httpURL)
  static let split: Option<Duration?> = .value(
    "--split", valueName: "duration",
    help: "Live HLS, DASH: record consecutive contents of about this much media each (10m,"
      + " 1h), each with its own id; when one ends, the next is queued and starts at the first"
      + " segment the one before did not record. --record-for then counts all parts.",
    parser: .duration(aboveZero: true))
  static let input: Option<String?> = .value(
    "-i", "--input", valueName: "file",
    help: "Read URLs from a file, one per line ('-' for standard input).", parser: .file)

  static let configuration = CommandConfiguration(
    name: "add",
    abstract: "Queue URLs for download and print their ids; 'offline run' downloads them.",
    discussion: "A URL already in the store is not added twice: its id is printed, and it is"
      + " queued again when it is notDownloaded (a suspended one waits for 'offline resume').",
    arguments: [urls],
    options: [id, title, sha256, mirror, peer, priority, connections, input]
      + [GetCommand.caFile, GetCommand.proxy, GetCommand.noProxy] + RequestOptionArguments.all
      + StreamOptions.all + [split],
    command: Self.self)

  var urls: [String]
  var id: String?
  var title: String?
  var sha256: String?
  var priority: Int
  var input: String?
  var hls: StreamConfiguration
  var connections: Int
  var requestOptions: RequestOptions
  var mirrors: [URL]
  /// `--peer`: nearby services asked for each file before the origin.
  var peers: [URL]
  /// The Metalink the one URL led to, once read (``resolvingMetalink(environment:)``): its
  /// file name and piece hashes are kept with the content.
  var metalink: MetalinkPlan?

  init(_ arguments: ParsedArguments) throws(UsageError) {
    urls = arguments[Self.urls]
    id = arguments[Self.id]
    title = arguments[Self.title]
    sha256 = arguments[Self.sha256]
    priority = arguments[Self.priority]
    input = arguments[Self.input]
    hls = try StreamOptions.hls(from: arguments)
    hls.live.splitEvery = arguments[Self.split]
    connections = arguments[Self.connections] ?? 0
    mirrors = arguments[Self.mirror]
    peers = arguments[Self.peer]
    requestOptions = try RequestOptionArguments.requestOptions(from: arguments)
    // Kept with the content like the rest, so a later `run` goes the same way.
    requestOptions.caFile = arguments[GetCommand.caFile]
    requestOptions.proxy = arguments[GetCommand.proxy]
    requestOptions.noProxy = arguments[GetCommand.noProxy]?.entries
    if input == nil && urls.isEmpty { throw UsageError("Missing URL.") }
    if (id != nil || title != nil || sha256 != nil || !mirrors.isEmpty)
      && (urls.count != 1 || input != nil)
    {
      throw UsageError("--id, --title, --sha256 and --mirror go with one URL.")
    }
  }

  func run(_ context: CommandContext) async throws(UsageError) -> Int32 {
    let console = context.console
    let command: AddCommand
    do throws(MetalinkPlan.Problem) {
      // A Metalink's URL is read now: its sources and SHA-256 are what is queued.
      command = try await resolvingMetalink(environment: context.host.environment)
    } catch {
      console.err("Error: " + TerminalText.message(error.description))
      return ExitCode.failure
    }
    var texts = command.urls
    if let input = command.input {
      guard let lines = Self.readLines(input, standardInput: context.host.standardInput) else {
        console.err("Error: cannot read \(input).")
        return ExitCode.failure
      }
      texts += lines
    }
    var sources: [OfflineSource] = []
    for text in texts {
      guard let url = URL(string: text), url.isHTTPWithHost else {
        throw UsageError("'\(text)' is not an http or https URL.")
      }
      var source = OfflineSource(
        url: url, id: command.id, title: command.title, requestOptions: command.requestOptions,
        mirrors: command.mirrors)
      source.peers = command.peers
      source.fileName = command.metalink?.name
      source.pieceChecks = command.metalink?.pieces
      sources.append(source)
    }
    return await ManagerAccess.using(context) { manager throws(OfflineError) in
      let config = try DownloadConfiguration(
        expectedSHA256: command.sha256, priority: command.priority, stream: command.hls,
        connections: ConnectionCount.choice(command.connections))
      let contents = try await manager.add(sources, configuration: config)
      console.out(contents.map(\.id).joined(separator: "\n"))
      return ExitCode.success
    }
  }

  /// The URLs listed in `path` (`-`: standard input), one per line; blank lines and `#`
  /// comments are skipped. Read to its end through a handle, so a pipe works as well as a
  /// file (`offline add -i <(grep mp4 list.txt)` names `/dev/fd/63`).
  private static func readLines(_ path: String, standardInput: OfflineStandardInput)
    -> [String]?
  {
    let data: Data?
    if path == "-" {
      data = standardInput.readToEnd()
    } else {
      data = FileHandle(forReadingAtPath: path).flatMap { try? $0.readToEnd() ?? Data() }
    }
    guard let data, let text = String(data: data, encoding: .utf8) else { return nil }
    return text.split(whereSeparator: \.isNewline)
      .map { $0.trimmingCharacters(in: .whitespaces) }
      .filter { !$0.isEmpty && !$0.hasPrefix("#") }
  }
}
