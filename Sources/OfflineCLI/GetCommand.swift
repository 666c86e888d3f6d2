import Foundation
import OfflineHTTP
import OfflineKit
import OfflineStore

/// `offline get`: download one URL into a file, resuming what an earlier run left.
struct GetCommand: Sendable {
  static let usage =
    "offline [--store <dir>] get <url> [-o <path>] [--sha256 <hex>] [--variant <v>] [--audio <a>]"
    + " [--subtitles <s>] [--quiet] [--json]"

  static let help = HelpText(
    overview: "Download a file for offline use, resuming where an earlier run stopped.",
    usage: usage,
    arguments: [
      (
        "<url>",
        "The http or https URL to download. An HLS playlist (.m3u8) becomes a folder"
          + " with an offline playlist, index.m3u8, that players play without a network."
      )
    ],
    options: [
      (
        "-o, --output <path>",
        "Where to put the file. A folder (existing, or ending in /)"
          + " gets the name from the URL. Default: the URL's last path component, made safe,"
          + " in the current folder."
      ),
      (
        "--sha256 <hex>",
        "The SHA-256 the file must have; a file that does not match is"
          + " not kept."
      ),
      (
        "--ca-file <pem>",
        "Trust only the CA certificates in this PEM file. Without it, CURL_CA_BUNDLE"
          + " (only that file), else SSL_CERT_FILE and SSL_CERT_DIR (a PEM file, a folder of"
          + " hashed names; each replaces the system's of its kind), else the system's. The"
          + " order: --ca-file, then CURL_CA_BUNDLE, then SSL_CERT_FILE and SSL_CERT_DIR, then"
          + " the system's."
      ),
      (
        "--proxy <url>",
        "Go through this proxy (http://, https://, socks5h://, socks5://; user:password@"
          + " allowed, never shown) instead of http_proxy (http URLs; HTTP_PROXY is ignored,"
          + " as curl ignores it), https_proxy or HTTPS_PROXY (https URLs), else all_proxy or"
          + " ALL_PROXY."
      ),
      (
        "--noproxy <hosts>",
        "Reach these hosts directly, instead of those in no_proxy or NO_PROXY:"
          + " comma-separated names (each covers its subdomains), IP addresses or prefixes"
          + " (10.0.0.0/8); * for every host."
      ),
      (
        "--stall-timeout <s>",
        "Give up on a connection after this many seconds without"
          + " data (default 30); the download resumes on the next attempt."
      ),
      ("--retries <n>", "Attempts in a row without progress before failing (default 5)."),
      ("--min-free <size>", "Start only if the file fits leaving this much free (512K, 1G)."),
      (
        "--connections <n>",
        "Fetch a large file (8 MiB and more) over n connections (at most 32), in"
          + " ranges written in place (default: one, switching to eight when a file with 64 MiB"
          + " or more left is slow on one connection; helps against per-connection limits)."
      ),
      (
        "--force",
        "Replace a regular file (or a symbolic link: the link itself, never its target)"
          + " at the output path that offline did not download. Folders, devices, FIFOs and"
          + " sockets are never replaced."
      ),
      (
        "--wait",
        "When another download is writing the same output file, wait for it to end"
          + " instead of failing at once."
      ),
    ] + StreamOptions.help + [
      ("-q, --quiet", "Print nothing but errors."),
      ("--json", "Print one JSON object per event on standard output."),
      ("-h, --help", "Show help information."),
    ],
    footer: """
      Running the same command again resumes a partial download; on a file that is already
      complete and verified it says so and downloads nothing.

      EXIT CODES: 0 complete and verified, 1 failed, 64 usage error, 130 stopped by
      SIGINT, 143 stopped by SIGTERM (partial data and the journal are kept).
      """)

  var url: URL
  var output: String?
  var sha256: String?
  var caFile: String?
  var proxy: Proxy?
  var noProxy: NoProxyList?
  var stallTimeout: Int = 30
  var retries: Int = 5
  var connections: Int = 0
  var force = false
  var waitsForOtherWriter = false
  var quiet = false
  var json = false
  var showHelp = false
  var hls = HLSOptions()
  var minimumFreeSpace: Int64?

  /// The most connections `--connections` opens to one host.
  static let maximumConnections = 32

  static func parse(_ arguments: [String]) throws(UsageError) -> GetCommand {
    var scanner = ArgumentScanner(arguments, usage: usage)
    var urlText: String?
    var command = GetCommand(url: URL(fileURLWithPath: "/"))
    while let item = scanner.next() {
      switch item {
      case .positional(let text):
        guard urlText == nil else {
          throw UsageError(message: "Unexpected argument '\(text)'.", usage: usage)
        }
        urlText = text
      case .option(let name, let inline):
        switch name {
        case "-o", "--output": command.output = try scanner.value(for: name, inline: inline)
        case "--sha256": command.sha256 = try scanner.value(for: name, inline: inline)
        case "--ca-file": command.caFile = try scanner.value(for: name, inline: inline)
        case "--proxy":
          let text = try scanner.value(for: name, inline: inline)
          do {
            command.proxy = try Proxy(parsing: text)
          } catch {
            throw UsageError(message: error.description, usage: usage)
          }
        case "--noproxy":
          command.noProxy = NoProxyList(parsing: try scanner.value(for: name, inline: inline))
        case "--stall-timeout":
          command.stallTimeout = try positiveInteger(scanner.value(for: name, inline: inline), name)
        case "--retries":
          command.retries = try positiveInteger(scanner.value(for: name, inline: inline), name)
        case "--min-free":
          command.minimumFreeSpace = ByteSize.parse(try scanner.value(for: name, inline: inline))
          guard command.minimumFreeSpace != nil else {
            throw UsageError(message: "--min-free takes a size, such as 512K or 1G.", usage: usage)
          }
        case "--connections":
          command.connections = try positiveInteger(scanner.value(for: name, inline: inline), name)
          guard command.connections <= maximumConnections else {
            throw UsageError(
              message: "--connections takes at most \(maximumConnections) (one host gets no more"
                + " than that many connections from one download).", usage: usage)
          }
        case "--force": command.force = true
        case "--wait": command.waitsForOtherWriter = true
        case _ where StreamOptions.names.contains(name):
          try StreamOptions.parse(
            name, try scanner.value(for: name, inline: inline), into: &command.hls, usage: usage)
        case "-q", "--quiet": command.quiet = true
        case "--json": command.json = true
        case "-h", "--help":
          command.showHelp = true
          return command
        default: throw scanner.unknown(name)
        }
      }
    }
    guard let urlText else { throw UsageError(message: "Missing URL.", usage: usage) }
    guard let url = URL(string: urlText), let scheme = url.scheme?.lowercased(),
      scheme == "http" || scheme == "https", url.host() != nil
    else {
      throw UsageError(message: "'\(urlText)' is not an http or https URL.", usage: usage)
    }
    if let sha = command.sha256, sha.count != 64 || !sha.allSatisfy(\.isHexDigit) {
      throw UsageError(message: "--sha256 takes 64 hexadecimal digits.", usage: usage)
    }
    command.url = url
    return command
  }

  private static func positiveInteger(_ text: String, _ name: String) throws(UsageError) -> Int {
    guard let value = Int(text), value > 0 else {
      throw UsageError(message: "\(name) takes a whole number above 0.", usage: usage)
    }
    return value
  }

  /// The absolute path of the file to write. The last component is never resolved as a
  /// link: a symbolic link at the output path is replaced, not written through (Foundation's
  /// `standardizingPath` resolves links, so only the folder goes through it).
  func destination(currentFolder: String = FileManager.default.currentDirectoryPath) -> String {
    let name = LocalFileName.from(url)
    guard let output else { return (currentFolder as NSString).appendingPathComponent(name) }
    let absolute =
      output.hasPrefix("/") ? output : (currentFolder as NSString).appendingPathComponent(output)
    var info = stat()
    let isFolder = stat(absolute, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    if output.hasSuffix("/") || isFolder {
      return ((absolute as NSString).standardizingPath as NSString).appendingPathComponent(name)
    }
    let last = (absolute as NSString).lastPathComponent
    let folder = ((absolute as NSString).deletingLastPathComponent as NSString).standardizingPath
    if last == "." || last == ".." {
      return ((absolute as NSString).standardizingPath as NSString).appendingPathComponent(name)
    }
    return (folder as NSString).appendingPathComponent(last)
  }

  static func run(_ command: GetCommand, context: CommandContext) async -> Int32 {
    let console = context.console
    if command.showHelp {
      console.out(help.render())
      return ExitCode.success
    }
    let configuration = CurlTransport.Configuration(
      stallTimeout: .seconds(command.stallTimeout), trustedCAFile: command.caFile,
      proxy: command.proxy, noProxy: command.noProxy, environment: .process)
    do {
      try configuration.validate()
    } catch {
      // A bad proxy variable or an unreadable CA setting: named, before the store is
      // opened or anything fetched.
      console.err("Error: \(error)")
      console.err("Usage: \(usage)")
      console.err("  See 'offline get --help'.")
      return ExitCode.usage
    }
    let reporter = GetReporter(console: console, quiet: command.quiet, json: command.json)
    let index: OfflineIndex
    do {
      index = try OfflineIndex(directory: context.storeDirectory)
    } catch {
      reporter.failed("The store at \(context.storeDirectory.path) cannot be opened: \(error)")
      return ExitCode.failure
    }
    let transport = CurlTransport(configuration: configuration)
    if let margin = command.minimumFreeSpace,
      let problem = await FreeSpaceCheck.problem(
        url: command.url, destination: command.destination(), margin: margin, transport: transport)
    {
      reporter.failed(problem)
      return ExitCode.failure
    }
    if HLSDownload.isPlaylistURL(command.url) {
      return await GetStreamRunner(
        command: command, index: index, transport: transport, reporter: reporter
      ).run()
    }
    let options: Transfer.Options
    do {
      options = try Transfer.Options(
        expectedSHA256: command.sha256,
        retry: RetryPolicy(
          maximumAttempts: command.retries, initialDelay: .milliseconds(500),
          maximumDelay: .seconds(30)),
        replacesExistingFile: command.force,
        connections: ConnectionCount.choice(command.connections),
        waitsForOtherWriter: command.waitsForOtherWriter)
    } catch {
      reporter.failed(error.description)  // parsing checked it: only a library change lands here
      return ExitCode.usage
    }
    let transfer = Transfer(
      url: command.url, destination: command.destination(), journal: index.transfers,
      transport: transport, options: options)
    do {
      let outcome = try await transfer.run { reporter.report($0) }
      reporter.finished(outcome)
      return ExitCode.success
    } catch {
      return reporter.ended(with: error)
    }
  }
}
