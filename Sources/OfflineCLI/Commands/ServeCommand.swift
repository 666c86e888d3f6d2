import Foundation
import OfflineKit
import OfflineService

/// `offline serve`: work the queue and serve it over HTTP (the JSON API, events, the web
/// page, content for players). A thin layer: the service lives in `OfflineService`.
struct ServeCommand: Command {
  static let listen: Option<ListenAddress> = .value(
    "--listen", valueName: "addr:port",
    help: "The numeric address and port to listen on. Any address but a loopback one"
      + " requires a token.",
    default: "127.0.0.1:8380",
    parser: ValueParser("a numeric address and a port, such as 127.0.0.1:8380") {
      ListenAddress(parsing: $0)
    })
  static let token: Option<String?> = .value(
    "--token", valueName: "token",
    help: "The token every request must show (16 to 128 letters, digits, '-' or '_');"
      + " generated and printed when another machine could connect and none is given.",
    parser: ValueParser(completion: .none) { (text: String) throws(ValueError) -> String in
      // Not echoed back: a token is a secret.
      guard ServiceToken.isValid(text) else {
        throw .reason("takes 16 to 128 letters, digits, '-' or '_'")
      }
      return text
    }
  ).hidingValues(.always)
  static let tokenFile: Option<String?> = .value(
    "--token-file", valueName: "file",
    help: "Read the token from the first line of this file, which no other user can see,"
      + " unlike a command line (or set \(tokenVariable)).",
    parser: .file)
  /// The environment variable a token may come from instead of `--token`.
  static let tokenVariable = "OFFLINE_SERVE_TOKEN"
  static let allowHost: Option<[String]> = .repeating(
    "--allow-host", valueName: "name",
    help: "A host name the service also answers to (repeatable).", parser: .string)
  static let parallel: Option<Int> = .value(
    "--parallel", valueName: "n", help: "Downloads at once.", default: "3",
    parser: .integer(atLeast: 1))
  static let minimumFreeSpace: Option<ByteCount> = .value(
    "--min-free", valueName: "size", help: "Free space to keep on the disk, as for 'run'.",
    default: "64M", parser: .byteCount)

  static let configuration = CommandConfiguration(
    name: "serve",
    abstract: "Work the queue and serve it over HTTP to browsers, players and programs.",
    discussion: """
      Prints the URL to open, with the token when there is one: opening it once sets
      a cookie in the browser. Programs send 'Authorization: Bearer TOKEN'. Only one
      process works a store's queue: 'serve' and 'run' refuse to start while the
      other runs. SIGINT (Ctrl-C) or SIGTERM suspends what is running and exits 130
      (143) within 10 seconds.
      """,
    options: [listen, token, tokenFile, allowHost, parallel, minimumFreeSpace],
    command: Self.self)

  let service: OfflineService.Configuration
  let parallel: Int
  let minimumFreeSpace: Int64

  init(_ arguments: ParsedArguments) throws(UsageError) {
    var service = OfflineService.Configuration()
    service.address = arguments[Self.listen]
    service.token = try Self.token(
      given: arguments[Self.token], file: arguments[Self.tokenFile],
      environment: arguments.host.environment)
    service.allowedNames = arguments[Self.allowHost]
    if !service.address.isLoopback && service.token == nil {
      service.token = ServiceToken.generate()
    }
    self.service = service
    parallel = arguments[Self.parallel]
    minimumFreeSpace = arguments[Self.minimumFreeSpace].bytes
  }

  func run(_ context: CommandContext) async -> Int32 {
    // Only the executable may end the process when a shutdown overruns its deadline.
    let deadline = context.host.ownsProcess ? ServeDeadline() : nil
    let console = context.console
    let manager: OfflineManager
    do throws(OfflineError) {
      manager = try ManagerAccess.open(
        context, parallel: parallel, minimumFreeSpace: minimumFreeSpace)
      try await manager.start()
    } catch {
      return ManagerAccess.fail(error, console)
    }
    let server: OfflineService
    do throws(OfflineServiceError) {
      server = try OfflineService(manager: manager, configuration: service)
    } catch {
      await manager.stop(suspendingRunning: true)
      console.err("Error: \(error)")
      return ExitCode.failure
    }
    console.out("Serving \(context.storeDirectory.path) on \(server.browserURL.absoluteString)")
    while !Task.isCancelled {
      try? await Task.sleep(for: .seconds(3600))  // ends at once when the task is cancelled
    }
    await ServeShutdown.run(server, manager, signalled: deadline?.moment ?? .now)
    return ExitCode.failure
  }

  /// The token: `--token`, else the first line of `--token-file`, else `OFFLINE_SERVE_TOKEN`
  /// (an empty one is none); nil when none is given.
  ///
  /// - Throws: ``UsageError`` for `--token` with `--token-file`, a file that cannot be read,
  ///   or a token from the file or the variable that is not one (never repeated).
  static func token(given: String?, file: String?, environment: [String: String])
    throws(UsageError) -> String?
  {
    if given != nil && file != nil {
      throw UsageError("--token and --token-file cannot go together.")
    }
    if let given { return given }
    let source: String
    let text: String
    if let file {
      guard let data = FileManager.default.contents(atPath: file) else {
        throw UsageError("--token-file: cannot read \(file).")
      }
      source = "--token-file: the first line of \(file)"
      text =
        String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline).first
        .map(String.init) ?? ""
    } else if let variable = environment[tokenVariable], !variable.isEmpty {
      source = tokenVariable
      text = variable
    } else {
      return nil
    }
    let token = text.trimmingCharacters(in: .whitespaces)
    guard ServiceToken.isValid(token) else {
      throw UsageError("\(source) must be 16 to 128 letters, digits, '-' or '_'.")
    }
    return token
  }
}
