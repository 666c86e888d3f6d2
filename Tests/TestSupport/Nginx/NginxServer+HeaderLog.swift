import Foundation

/// One request with the header fields `NginxServer.Options.loggedHeaders` names, as nginx
/// logged them; a field the client did not send is missing from ``headers``.
public struct HeaderLogEntry: Sendable, Equatable {
  /// The request target as sent, with its query string.
  public var uri: String
  /// The response status code.
  public var status: Int
  /// The logged fields by lowercased name.
  public var headers: [String: String]

  /// The value of the field `name` (any case), nil when it was not sent.
  public subscript(name: String) -> String? { headers[name.lowercased()] }
}

extension NginxServer.Layout {
  var headerLog: URL { prefix.appendingPathComponent("headers.log") }
}

extension NginxServer {
  /// The header log format: URI, status, then each field of `names`, tab-separated.
  static func headerLogFormat(_ names: [String]) -> String {
    (["$request_uri", "$status"] + names.map(variable)).joined(separator: "\\t")
  }

  /// nginx's variable for the request header `name`: `X-Api-Key` is `$http_x_api_key`.
  private static func variable(_ name: String) -> String {
    "$http_" + name.lowercased().replacingOccurrences(of: "-", with: "_")
  }

  /// The requests logged so far with the fields of `Options.loggedHeaders`, oldest first.
  public func headerLog() throws -> [HeaderLogEntry] {
    try readHeaderLog()
  }

  /// The requests logged with the fields of `Options.loggedHeaders`, oldest first, once
  /// there are `minimumCount` of them or `timeout` seconds have passed (polled every 10 ms
  /// with `Task.sleep`: no thread is held while it waits).
  public func headerLog(minimumCount: Int, timeout: Double = 2) async throws
    -> [HeaderLogEntry]
  {
    try await Self.poll(minimumCount: minimumCount, timeout: timeout) { try readHeaderLog() }
  }

  private func readHeaderLog() throws -> [HeaderLogEntry] {
    let path = layout.headerLog.path
    guard FileManager.default.fileExists(atPath: path) else { return [] }
    let names = options.loggedHeaders.map { $0.lowercased() }
    return try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").compactMap {
      line in
      let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
      guard fields.count == names.count + 2, let status = Int(fields[1]) else { return nil }
      var headers: [String: String] = [:]
      for (name, value) in zip(names, fields.dropFirst(2)) where value != "-" {
        headers[name] = AccessLogEntry.unescaped(value)
      }
      return HeaderLogEntry(
        uri: AccessLogEntry.unescaped(fields[0]), status: status, headers: headers)
    }
  }
}
