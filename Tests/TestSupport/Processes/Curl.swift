import Foundation

/// curl, as a client nobody here wrote: one request to a test server, its exit code, status,
/// headers and body.
///
/// ```swift
/// let reply = try await Curl.fetch(server.url("/a.bin"), ["-r", "10-"])
/// #expect(reply.status == 206)
/// ```
public enum Curl {
  /// What one curl run got.
  public struct Reply: Sendable {
    /// curl's exit code (0 = success, 18 = partial file, 28 = timed out, 60 = untrusted).
    public var exitCode: Int32
    /// The status of the last response, 0 when none arrived.
    public var status: Int
    /// The header fields of the last response, names in lower case.
    public var headers: [String: String]
    /// The body bytes curl wrote.
    public var body: Data
    /// What curl printed on standard error.
    public var stderr: String

    /// The body decoded as UTF-8 (invalid bytes are replaced).
    public var text: String { String(decoding: body, as: UTF8.self) }
    /// The body read as JSON, or nil when it is none.
    public var json: Any? { try? JSONSerialization.jsonObject(with: body) }
  }

  /// Runs `curl -sS --path-as-is --max-time 20 ARGUMENTS URL` (its own `--max-time` or `-m`
  /// in `arguments` wins) and collects the reply; the process is given 10 s more than curl's
  /// limit, awaited without holding a thread.
  public static func fetch(_ url: String, _ arguments: [String] = []) async throws -> Reply {
    let scratch = try TemporaryDirectory(prefix: "offlinekit-curl")
    let bodyFile = scratch.file("body")
    let headerFile = scratch.file("headers")
    // Pins: a caller's `-m 60` was cut at 30 s by this process limit, under a loaded
    // machine (ReadThroughKillTests in session 38's merge run).
    var limit = 20.0
    for (option, value) in zip(arguments, arguments.dropFirst())
    where option == "-m" || option == "--max-time" {
      limit = Double(value) ?? limit
    }
    let output = try await ProcessRunner.run(
      "/usr/bin/curl",
      ["-sS", "--path-as-is", "--max-time", "20", "-o", bodyFile.path, "-D", headerFile.path]
        + arguments + [url],
      timeout: limit + 10)
    let headerText = (try? String(contentsOf: headerFile, encoding: .utf8)) ?? ""
    let (status, headers) = lastResponse(in: headerText)
    return Reply(
      exitCode: output.status, status: status, headers: headers,
      body: (try? Data(contentsOf: bodyFile)) ?? Data(), stderr: output.stderrText)
  }

  /// `fetch(_:_:)` with a URL value.
  public static func fetch(_ url: URL, _ arguments: [String] = []) async throws -> Reply {
    try await fetch(url.absoluteString, arguments)
  }

  /// The status and fields of the last response block in a `curl -D` dump.
  private static func lastResponse(in text: String) -> (Int, [String: String]) {
    var status = 0
    var headers: [String: String] = [:]
    for line in text.components(separatedBy: "\r\n") {
      if line.hasPrefix("HTTP/") {
        let parts = line.split(separator: " ")
        status = parts.count > 1 ? Int(parts[1]) ?? 0 : 0
        headers = [:]
      } else if let colon = line.firstIndex(of: ":") {
        let name = line[..<colon].lowercased()
        headers[name] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
      }
    }
    return (status, headers)
  }
}
