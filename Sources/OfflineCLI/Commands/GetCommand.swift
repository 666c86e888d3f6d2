import Foundation
import OfflineHTTP
import OfflineKit
import OfflineStore

/// `offline get`: download one URL into a file, resuming what an earlier run left.
struct GetCommand: Command {
  static let url: Argument<GetTarget> = .required(
    "url", noun: "URL",
    help: "The http or https URL to download. An HLS playlist (.m3u8) becomes a folder with an"
      + " offline playlist, index.m3u8, that players play without a network; a DASH manifest"
      + " (.mpd) a folder with an offline index.mpd. A Metalink (a .meta4 or .metalink URL or"
      + " file, or a URL whose answer is one or links one with rel=describedby) becomes the"
      + " file it describes: its name, size and SHA-256 are checked, its"
      + " URLs are the sources by priority, and with piece hashes a bad piece is fetched"
      + " again alone from another source.",
    parser: .getTarget)
  static let output: Option<String?> = .value(
    "-o", "--output", valueName: "path",
    help: "Where to put the file. A folder (existing, or ending in /) gets the name from the"
      + " URL. Default: the URL's last path component, made safe, in the current folder. For"
      + " a stream, a file ending in .mp4 or .mkv gets the stream as one file (see 'offline"
      + " export'): downloaded first into a hidden folder beside it, .NAME.offline, which is"
      + " removed once the file is in place and verified.",
    parser: .file)
  static let sha256: Option<String?> = .value(
    "--sha256", valueName: "hex",
    help: "The SHA-256 the file must have; a file that does not match is not kept.",
    parser: .sha256)
  static let caFile: Option<String?> = .value(
    "--ca-file", valueName: "pem",
    help: "Trust only the CA certificates in this PEM file. Without it, CURL_CA_BUNDLE (only"
      + " that file), else SSL_CERT_FILE and SSL_CERT_DIR (a PEM file, a folder of hashed"
      + " names; each replaces the system's of its kind), else the system's. The order:"
      + " --ca-file, then CURL_CA_BUNDLE, then SSL_CERT_FILE and SSL_CERT_DIR, then the"
      + " system's.",
    parser: .file)
  static let proxy: Option<Proxy?> = .value(
    "--proxy", valueName: "url",
    help: "Go through this proxy (http://, https://, socks5h://, socks5://; user:password@"
      + " allowed, never shown) instead of http_proxy (http URLs; HTTP_PROXY is ignored, as"
      + " curl ignores it), https_proxy or HTTPS_PROXY (https URLs), else all_proxy or"
      + " ALL_PROXY.",
    parser: .proxy
  ).hidingValues(.whenItHoldsUserInfo)
  static let noProxy: Option<NoProxyList?> = .value(
    "--noproxy", valueName: "hosts",
    help: "Reach these hosts directly, instead of those in no_proxy or NO_PROXY:"
      + " comma-separated names (each covers its subdomains), IP addresses or prefixes"
      + " (10.0.0.0/8); * for every host.",
    parser: .noProxyList)
  static let stallTimeout: Option<Duration> = .value(
    "--stall-timeout", valueName: "s",
    help: "Give up on a connection after this many seconds without data; the download"
      + " resumes on the next attempt.",
    default: "30", parser: .wholeSeconds)
  static let retries: Option<Int> = .value(
    "--retries", valueName: "n", help: "Attempts in a row without progress before failing.",
    default: "5", parser: .integer(atLeast: 1))
  static let minimumFreeSpace: Option<ByteCount?> = .value(
    "--min-free", valueName: "size",
    help: "Start only if the file fits leaving this much free (512K, 1G).", parser: .byteCount)
  static let connections: Option<Int?> = .value(
    "--connections", valueName: "n",
    help: "Fetch a large file (8 MiB and more) over n connections (at most 32), in ranges"
      + " written in place (default: one, switching to eight when a file with 64 MiB or more"
      + " left is slow on one connection, then adding four at a time while they raise the"
      + " speed, up to 16 or --max-connections; helps against per-connection limits). With"
      + " --max-connections above n, n grows the same way.",
    parser: .integer(atLeast: 1, atMost: maximumConnections))
  static let force: Option<Bool> = .flag(
    "--force",
    help: "Replace a regular file (or a symbolic link: the link itself, never its target) at"
      + " the output path that offline did not download. Folders, devices, FIFOs and sockets"
      + " are never replaced.")
  static let wait: Option<Bool> = .flag(
    "--wait",
    help: "When another download is writing the same output file, wait for it to end instead"
      + " of failing at once.")
  static let refreshCommand: Option<String?> = .value(
    "--refresh-command", valueName: "command",
    help: "When the URL is answered 401, 403 or 410 (a signed URL that expired), run this with"
      + " /bin/sh -c (OFFLINE_URL and OFFLINE_STATUS set, at most 20 s) and go on from the"
      + " http or https URL it prints; the bytes on disk are kept when it serves the same"
      + " file. For a stream (HLS, DASH), a playlist, segment, key or init section so"
      + " answered is not tried again: the playlist or manifest is read from the new URL"
      + " and the pieces on disk are kept.",
    parser: .string)
  static let subsSidecar: Option<Bool> = .flag(
    "--subs-sidecar",
    help: "With -o FILE.mp4 or FILE.mkv of a stream: also write its subtitle track as"
      + " FILE.vtt beside the file (refused like the file when it exists, unless --force).")
  static let mirror: Option<[URL]> = .repeating(
    "--mirror", valueName: "url",
    help: "Another http or https URL of the same file (repeat for more). Each is asked for"
      + " the file's first byte before any of its bytes are used; one whose length differs,"
      + " or that serves no ranges, is dropped and named. Ranges go to every usable source by"
      + " measured speed; a slow one never holds the end, one that keeps failing rests and is"
      + " tried again later. Secrets (--header marked secret, cookies, credentials) are"
      + " never sent to mirrors. Files of 8 MiB and more; not for streams.",
    parser: .httpURL)
  static let peer: Option<[URL]> = .repeating(
    "--peer", valueName: "url",
    help: "A nearby 'offline serve' (http://host:8380, with ?token=TOKEN as it printed; repeat"
      + " for more) asked for the file by its URL before the origin: a peer that holds it"
      + " downloaded serves it as a mirror preferred to the origin, its length and bytes"
      + " checked like any mirror's; the origin serves what the peers cannot. A peer that is"
      + " down is named; one that holds nothing is passed over. With the origin down or"
      + " without ranges, a peer serves the whole file, checked against its own record. Not"
      + " for streams.",
    parser: .httpURL)
  static let split: Option<Duration?> = .value(
    "--split", valueName: "duration",
    help: "Live HLS, DASH: record consecutive parts of about this much media each (10m, 1h) into"
      + " part001/, part002/… of the output folder, each its own offline copy; no segment is"
      + " lost or recorded twice between two parts. --record-for then counts all parts.",
    parser: .duration(aboveZero: true))
  static let quiet: Option<Bool> = .flag("-q", "--quiet", help: "Print nothing but errors.")
  static let json: Option<Bool> = .flag(
    "--json", help: "Print one JSON object per event on standard output.")

  static let configuration = CommandConfiguration(
    name: "get",
    abstract: "Download a file for offline use, resuming where an earlier run stopped.",
    discussion: """
      Running the same command again resumes a partial download; on a file that is already
      complete and verified it says so and downloads nothing.

      EXIT CODES: 0 complete and verified, 1 failed, 64 usage error, 130 stopped by
      SIGINT, 143 stopped by SIGTERM (partial data and the journal are kept).
      """,
    arguments: [url],
    options: [
      output, sha256, mirror, peer, caFile, proxy, noProxy, stallTimeout, retries, minimumFreeSpace,
      connections, force, wait, refreshCommand,
    ] + RequestOptionArguments.all + StreamOptions.all + [split, subsSidecar, quiet, json],
    command: Self.self)

  /// The most connections `--connections` opens to one host.
  static let maximumConnections = 32

  var url: URL
  /// What was given: the URL, or a Metalink file.
  var target: GetTarget
  /// The Metalink the download comes from, once read (``resolvingMetalink(host:transport:)``).
  var metalink: MetalinkPlan?
  /// Whether ``url`` is a Metalink because a plain URL's answer said so (its
  /// `Content-Type`, or a `Link: rel=describedby`), whatever its extension.
  var urlIsMetalink = false
  var output: String?
  var sha256: String?
  var caFile: String?
  var proxy: Proxy?
  var noProxy: NoProxyList?
  var stallTimeout: Duration
  var retries: Int
  var connections: Int
  var force: Bool
  var waitsForOtherWriter: Bool
  var quiet: Bool
  var json: Bool
  /// `--subs-sidecar`: an exported stream's subtitle track also as a `.vtt` beside the file.
  var subtitleSidecar: Bool
  var hls: StreamConfiguration
  var minimumFreeSpace: Int64?
  var requestOptions: RequestOptions
  var refreshCommand: String?
  var mirrors: [URL]
  /// `--peer`: nearby services asked for the file before the origin.
  var peers: [URL]

  init(_ arguments: ParsedArguments) throws(UsageError) {
    target = arguments[Self.url]
    switch target {
    case .url(let given): url = given
    // Replaced by the Metalink's best URL before anything is fetched.
    case .metalinkFile(let path): url = URL(fileURLWithPath: path)
    }
    output = arguments[Self.output]
    sha256 = arguments[Self.sha256]
    caFile = arguments[Self.caFile]
    proxy = arguments[Self.proxy]
    noProxy = arguments[Self.noProxy]
    stallTimeout = arguments[Self.stallTimeout]
    retries = arguments[Self.retries]
    connections = arguments[Self.connections] ?? 0
    force = arguments[Self.force]
    waitsForOtherWriter = arguments[Self.wait]
    quiet = arguments[Self.quiet]
    json = arguments[Self.json]
    subtitleSidecar = arguments[Self.subsSidecar]
    if subtitleSidecar, !Self.namesExport(output) {
      throw UsageError("--subs-sidecar goes with -o FILE.mp4 or -o FILE.mkv of a stream.")
    }
    hls = try StreamOptions.hls(from: arguments)
    hls.live.splitEvery = arguments[Self.split]
    if hls.live.splitEvery != nil, Self.namesExport(output) {
      throw UsageError("--split writes a folder of parts; it does not go with -o FILE.mp4.")
    }
    minimumFreeSpace = arguments[Self.minimumFreeSpace]?.bytes
    requestOptions = try RequestOptionArguments.requestOptions(from: arguments)
    refreshCommand = arguments[Self.refreshCommand]
    mirrors = arguments[Self.mirror]
    peers = arguments[Self.peer]
  }

  /// The absolute path of the file to write. The last component is never resolved as a
  /// link: a symbolic link at the output path is replaced, not written through (Foundation's
  /// `standardizingPath` resolves links, so only the folder goes through it).
  func destination(currentFolder: String) -> String {
    let name = metalink?.name ?? LocalFileName.from(url)
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

  func run(_ context: CommandContext) async throws(UsageError) -> Int32 {
    var command = self
    let console = context.console
    let host = context.host
    let configuration = CurlTransport.Configuration(
      stallTimeout: command.stallTimeout, trustedCAFile: command.caFile,
      proxy: command.proxy, noProxy: command.noProxy, environment: CurlEnvironment(host.environment)
    )
    let transport: any HTTPTransporting
    do {
      try configuration.validate()
      transport = try TransportChoice.make(configuration, environment: host.environment)
    } catch {
      // A bad proxy variable or an unreadable CA setting: named, before the store is
      // opened or anything fetched.
      throw UsageError("\(error)")
    }
    let reporter = GetReporter(console: console, quiet: command.quiet, json: command.json)
    do throws(MetalinkPlan.Problem) {
      // A Metalink is read first: its URLs, name and checks make the download.
      command = try await command.resolvingMetalink(host: host, transport: transport)
    } catch {
      reporter.failed(error.description)
      return ExitCode.failure
    }
    let destination = command.destination(currentFolder: host.workingDirectory.path)
    let index: OfflineIndex
    do {
      index = try OfflineIndex(directory: context.storeDirectory)
    } catch {
      reporter.failed("The store at \(context.storeDirectory.path) cannot be opened: \(error)")
      return ExitCode.failure
    }
    let kind = ContentDownload.Kind(command.url)
    var file: Transfer.Configuration
    do {
      file = try Transfer.Configuration(
        expectedSHA256: command.sha256, retry: command.retryPolicy,
        replacesExistingFile: command.force,
        connections: ConnectionCount.choice(command.connections),
        waitsForOtherWriter: command.waitsForOtherWriter)
      file.maximumConnections = command.hls.maxConnections
      if !kind.isStream {
        file.mirrors = command.mirrors
        file.peers = command.peers
      }
      file.pieces = command.metalink?.pieces
      file.expectedLength = command.metalink?.size
      // A plain URL whose answer is or names a Metalink: that is downloaded instead.
      file.stopsAtMetalink = !kind.isStream && command.metalink == nil
    } catch {
      reporter.failed(error.description)  // parsing checked it: only a library change lands here
      return ExitCode.usage
    }
    // A stream with `-o FILE.mp4` (or .mkv) goes through a work folder into that file.
    let export =
      kind.isStream ? command.exportDestination(currentFolder: host.workingDirectory.path) : nil
    if let export,
      let refusal = command.refusal(
        exportingTo: export, environment: host.environment, reporter: reporter)
    {
      return refusal
    }
    var download = ContentDownload(
      kind: kind,
      session: ContentSession(
        url: command.url, transport: transport, requestOptions: command.requestOptions,
        retry: command.retryPolicy),
      journal: index.transfers,
      destination: export.map(Self.workFolder(exportingTo:))
        ?? (kind.isStream
          ? command.streamFolder(currentFolder: host.workingDirectory.path) : destination),
      file: file, stream: command.hls, refreshesURL: command.refreshCommand != nil)
    // What a stream's run went on without (a steering manifest that failed), as `run` logs it.
    download.log = { reporter.libraryNote($0) }
    if let margin = command.minimumFreeSpace,
      let shortage = await download.spaceShortage(keepingFree: margin)
    {
      reporter.failed(FreeSpaceCheck.message(shortage, url: command.url))
      return ExitCode.failure
    }
    if let export {
      return await command.runThenExport(
        download, to: export, journal: index.transfers, reporter: reporter, host: host)
    }
    return await command.run(download, reporter: reporter, host: host) { document in
      var next = self
      next.target = .url(document)
      next.url = document
      next.urlIsMetalink = true
      do {
        return try await next.run(context)
      } catch {
        reporter.failed("\(error)")  // checked when the command was read: not reached
        return ExitCode.usage
      }
    }
  }

  /// How often a request is tried: `--retries`, backing off from 0.5 s to 30 s.
  var retryPolicy: RetryPolicy {
    RetryPolicy(
      maximumAttempts: retries, initialDelay: .milliseconds(500), maximumDelay: .seconds(30))
  }
}
