import Foundation
import TestSupport

/// What one `curl` run saw: the reference client for checking the test servers.
struct CurlResult {
  /// curl's exit code (18 = partial file, 0 = success).
  var exitCode: Int32
  /// The status of the last response, 0 if none arrived.
  var status: Int
  /// The header fields of the last response, names lowercased.
  var headers: [String: String]
  /// The body bytes curl wrote.
  var body: Data
  /// What curl printed on stderr.
  var stderr: String
}

/// Runs `/usr/bin/curl` against the test servers.
enum Curl {
  /// Fetches `url` with curl's `arguments` added, with a 20 s limit.
  static func fetch(_ url: URL, _ arguments: [String] = []) throws -> CurlResult {
    let scratch = try TemporaryDirectory(prefix: "offlinekit-curl")
    let bodyFile = scratch.file("body")
    let headerFile = scratch.file("headers")
    let output = try ProcessRunner.run(
      "/usr/bin/curl",
      ["-sS", "--max-time", "20", "-o", bodyFile.path, "-D", headerFile.path]
        + arguments + [url.absoluteString],
      timeout: 30)
    let headerText = (try? String(contentsOf: headerFile, encoding: .utf8)) ?? ""
    let (status, headers) = parseLastResponse(headerText)
    return CurlResult(
      exitCode: output.status, status: status, headers: headers,
      body: (try? Data(contentsOf: bodyFile)) ?? Data(), stderr: output.stderrText)
  }

  /// The status and fields of the last response block in a `curl -D` dump.
  private static func parseLastResponse(_ text: String) -> (Int, [String: String]) {
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
