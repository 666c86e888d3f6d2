import Foundation
import TestSupport

/// curl, as a client nobody here wrote: one request, its status, headers and body.
enum Curl {
  /// What one curl run got.
  struct Reply: Sendable {
    var status: Int
    /// Header names in lower case (of the last response, when curl followed none).
    var headers: [String: String]
    var body: Data
    var stderr: String

    var text: String { String(decoding: body, as: UTF8.self) }
    /// The body read as JSON, or nil when it is none.
    var json: Any? { try? JSONSerialization.jsonObject(with: body) }
  }

  /// Runs `curl -s --path-as-is ARGUMENTS URL` and collects the reply (at most 30 s).
  static func request(_ url: String, _ arguments: [String] = []) throws -> Reply {
    let scratch = try TemporaryDirectory(prefix: "offlinekit-curl")
    let headerFile = scratch.file("headers")
    let bodyFile = scratch.file("body")
    let output = try ProcessRunner.run(
      "/usr/bin/curl",
      ["-s", "--path-as-is", "-D", headerFile.path, "-o", bodyFile.path, "-w", "%{http_code}"]
        + arguments + [url], timeout: 30)
    var headers: [String: String] = [:]
    let headerText = (try? String(contentsOf: headerFile, encoding: .utf8)) ?? ""
    for line in headerText.split(separator: "\r\n") {
      if line.hasPrefix("HTTP/") { headers = [:] }
      let parts = line.split(separator: ":", maxSplits: 1)
      guard parts.count == 2 else { continue }
      headers[parts[0].lowercased()] = parts[1].trimmingCharacters(in: .whitespaces)
    }
    return Reply(
      status: Int(output.stdoutText) ?? 0, headers: headers,
      body: (try? Data(contentsOf: bodyFile)) ?? Data(), stderr: output.stderrText)
  }
}
