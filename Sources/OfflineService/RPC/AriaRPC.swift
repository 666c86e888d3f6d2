import Foundation
import HexDigits
import OfflineHTTP
import OfflineKit

/// `POST /jsonrpc`: the subset of aria2's JSON-RPC interface that download front ends
/// (aria2p, AriaNg, browser extensions) need, over the manager. One call or a batch.
///
/// A content is an aria2 download whose GID is ``AriaGID/of(_:)`` its id. With a service
/// token, every `aria2.` call must carry it as aria2 does, `"token:SECRET"` first in
/// `params` (clients send no `Authorization` header); `system.` calls need none.
/// See https://aria2.github.io/manual/en/html/aria2c.html#rpc-interface.
struct AriaRPC: Sendable {
  let manager: OfflineManager
  let events: EventBroadcaster
  let token: String?

  /// The methods answered, for `system.listMethods`.
  static let methods = [
    "aria2.addUri", "aria2.tellStatus", "aria2.tellActive", "aria2.tellWaiting",
    "aria2.tellStopped", "aria2.pause", "aria2.forcePause", "aria2.unpause", "aria2.remove",
    "aria2.forceRemove", "aria2.removeDownloadResult", "aria2.getGlobalStat",
    "aria2.changeGlobalOption", "aria2.getGlobalOption", "aria2.getVersion",
    "system.listMethods",
  ]

  /// The most calls a batch may hold: a larger batch is refused whole, none of it run (a
  /// batch of 140 KB kept the service busy for 30 s). Front ends batch a few calls.
  static let maximumBatch = 64

  /// Answers a JSON-RPC request: 200 when every call succeeded, 400 (as aria2) otherwise.
  func respond(to request: HTTPRequest) async -> HTTPResponse {
    guard request.method == "POST" else {
      return .text(405, "JSON-RPC calls are POSTed.", headers: [("Allow", "POST")])
    }
    guard let parsed = try? JSONSerialization.jsonObject(with: request.body) else {
      return reply(
        400, Self.failure(id: NSNull(), code: -32700, message: "Parse error: the body is not JSON.")
      )
    }
    let lookup = AriaLookup(manager: manager)
    if let batch = parsed as? [Any] {
      guard batch.count <= Self.maximumBatch else {
        return reply(
          400,
          Self.failure(
            id: NSNull(), code: -32600,
            message: "Invalid Request: a batch holds at most \(Self.maximumBatch) calls; this one"
              + " has \(batch.count)."))
      }
      var answers: [[String: Any]] = []
      for item in batch { answers.append(await call(item, lookup).answer) }
      return reply(200, answers)
    }
    let (answer, failed) = await call(parsed, lookup)
    return reply(failed ? 400 : 200, answer)
  }

  private func call(_ object: Any, _ lookup: AriaLookup) async -> (
    answer: [String: Any], failed: Bool
  ) {
    guard let call = object as? [String: Any], let method = call["method"] as? String else {
      return (Self.failure(id: NSNull(), code: -32600, message: "Invalid Request."), true)
    }
    let id = call["id"] ?? NSNull()
    var params = call["params"] as? [Any] ?? []
    if let first = params.first as? String, first.hasPrefix("token:") {
      params.removeFirst()
      if let token, !RequestGuard.same(String(first.dropFirst("token:".count)), token) {
        return (Self.failure(id: id, code: 1, message: "Unauthorized"), true)
      }
    } else if token != nil && method.hasPrefix("aria2.") {
      return (Self.failure(id: id, code: 1, message: "Unauthorized"), true)
    }
    do {
      let result = try await dispatch(method, params, lookup)
      return (["jsonrpc": "2.0", "id": id, "result": result], false)
    } catch let failure as AriaFailure {
      return (Self.failure(id: id, code: failure.code, message: failure.message), true)
    } catch let error as OfflineError {
      return (Self.failure(id: id, code: 1, message: error.description), true)
    } catch {
      return (Self.failure(id: id, code: 1, message: "\(error)"), true)
    }
  }

  private func dispatch(_ method: String, _ params: [Any], _ lookup: AriaLookup) async throws
    -> Any
  {
    switch method {
    case "aria2.addUri": return try await addURI(params, lookup)
    case "aria2.tellStatus":
      let snapshot = try await find(params.first, lookup)
      return AriaStatus.structure(
        snapshot, speed: events.speed(of: snapshot.id), keys: params.dropFirst().first as? [String])
    case "aria2.tellActive":
      return try await statuses(where: ["active"], keys: params.first as? [String], lookup)
    case "aria2.tellWaiting":
      return try await page(["waiting", "paused"], params, lookup)
    case "aria2.tellStopped":
      return try await page(["complete", "error", "removed"], params, lookup)
    case "aria2.pause", "aria2.forcePause":
      return try await act(params, lookup) { try await $0.suspend() }
    case "aria2.unpause":
      return try await act(params, lookup) { try await $0.resume() }
    case "aria2.remove", "aria2.forceRemove":
      return try await act(params, lookup) { try await $0.cancel() }
    case "aria2.removeDownloadResult":
      let snapshot = try await find(params.first, lookup)
      lookup.changed()
      try await manager.forget(id: snapshot.id)
      events.send(EventText.plain("forgotten", snapshot.id))
      return "OK"
    case "aria2.getGlobalStat": return try await globalStat(lookup)
    case "aria2.changeGlobalOption": return try await changeGlobalOption(params.first)
    case "aria2.getGlobalOption": return globalOptions()
    case "aria2.getVersion":
      return ["version": "offlinekit-\(OfflineKitVersion.string)", "enabledFeatures": ["HTTPS"]]
    case "system.listMethods": return Self.methods
    default:
      throw AriaFailure(
        code: -32601, message: "Method not found: \(RequestGuard.printable(method)).")
    }
  }

  private func addURI(_ params: [Any], _ lookup: AriaLookup) async throws -> String {
    guard let uris = params.first as? [String], let first = uris.first else {
      throw AriaFailure(code: 1, message: "addUri takes a list of URIs.")
    }
    guard let url = URL(string: first), url.isHTTPWithHost else {
      throw AriaFailure(code: 1, message: "Only http and https URIs can be added.")
    }
    var sha256: String?
    if let options = params.dropFirst().first as? [String: Any],
      let checksum = options["checksum"] as? String
    {
      let parts = checksum.split(separator: "=", maxSplits: 1)
      guard parts.count == 2, parts[0].lowercased() == "sha-256",
        ASCIIHex.isDigits(parts[1], count: 64)
      else { throw AriaFailure(code: 1, message: "Only a 'sha-256=HEX' checksum is supported.") }
      sha256 = String(parts[1])
    }
    let contents = try await manager.add(
      [OfflineSource(url: url)], configuration: try DownloadConfiguration(expectedSHA256: sha256))
    let id = contents[0].id
    lookup.changed(adding: id)
    events.send(EventText.event("content", ContentProjection(try await manager.snapshot(id: id))))
    return AriaGID.of(id)
  }

  private func act(
    _ params: [Any], _ lookup: AriaLookup, _ body: (OfflineContent) async throws -> Void
  ) async throws -> String {
    let snapshot = try await find(params.first, lookup)
    lookup.changed()
    guard let content = try await content(id: snapshot.id) else {
      throw AriaFailure(code: 1, message: "GID \(AriaGID.of(snapshot.id)) is not found")
    }
    try await body(content)
    return AriaGID.of(snapshot.id)
  }

  /// The content with `id`, nil when it was forgotten since it was looked up.
  private func content(id: String) async throws(OfflineError) -> OfflineContent? {
    do {
      return try await manager.content(id: id)
    } catch {
      if error.code == .unknownContent { return nil }
      throw error
    }
  }

  /// The content GID `parameter` names, as it is now: one snapshot, the GID found through
  /// the request's one listing.
  private func find(_ parameter: Any?, _ lookup: AriaLookup) async throws
    -> OfflineContent.Snapshot
  {
    guard let gid = (parameter as? String)?.lowercased(), AriaGID.isWellFormed(gid) else {
      throw AriaFailure(code: 1, message: "A GID is 16 hexadecimal digits.")
    }
    guard let id = try await lookup.id(of: gid),
      let found = try? await manager.snapshot(id: id)
    else { throw AriaFailure(code: 1, message: "GID \(gid) is not found") }
    return found
  }

  private func statuses(where words: Set<String>, keys: [String]?, _ lookup: AriaLookup)
    async throws -> [[String: Any]]
  {
    try await lookup.all().filter { words.contains(AriaStatus.word($0)) }.map {
      AriaStatus.structure($0, speed: events.speed(of: $0.id), keys: keys)
    }
  }

  /// `tellWaiting` / `tellStopped`: `offset`, `num` and optional keys; a negative offset
  /// counts from the end, in reverse order, as aria2 does.
  private func page(_ words: Set<String>, _ params: [Any], _ lookup: AriaLookup) async throws
    -> [[String: Any]]
  {
    guard params.count >= 2, let offset = params[0] as? Int, let count = params[1] as? Int,
      count >= 0
    else { throw AriaFailure(code: 1, message: "Give an offset and a count.") }
    let all = try await statuses(
      where: words, keys: params.count > 2 ? params[2] as? [String] : nil, lookup)
    if offset >= 0 { return Array(all.dropFirst(offset).prefix(count)) }
    let start = all.count + offset
    guard start >= 0 else { return [] }
    return Array(all[...start].reversed().prefix(count))
  }

  private func globalStat(_ lookup: AriaLookup) async throws -> [String: String] {
    var counts: [String: Int] = [:]
    for snapshot in try await lookup.all() {
      counts[AriaStatus.word(snapshot), default: 0] += 1
    }
    let stopped =
      counts["complete", default: 0] + counts["error", default: 0]
      + counts["removed", default: 0]
    return [
      "downloadSpeed": String(Int64(events.totalSpeed)), "uploadSpeed": "0",
      "numActive": String(counts["active", default: 0]),
      "numWaiting": String(counts["waiting", default: 0] + counts["paused", default: 0]),
      "numStopped": String(stopped), "numStoppedTotal": String(stopped),
    ]
  }

  private func changeGlobalOption(_ parameter: Any?) async throws -> String {
    guard let options = parameter as? [String: Any] else {
      throw AriaFailure(code: 1, message: "changeGlobalOption takes an object of options.")
    }
    // Every option is checked before any is applied, so a refused call changes nothing.
    var limit: ByteRate?
    var limitGiven = false
    for (name, value) in options {
      guard name == "max-overall-download-limit" else {
        throw AriaFailure(
          code: 1, message: "The option '\(RequestGuard.printable(name))' is not supported.")
      }
      switch RateLimitText.parse(value) {
      case .success(let rate):
        limit = rate
        limitGiven = true
      case .failure(let failure):
        throw AriaFailure(code: 1, message: "max-overall-download-limit: \(failure.message)")
      }
    }
    if limitGiven { try await manager.setRateLimit(limit) }
    return "OK"
  }

  /// The global options we keep, as aria2 reports them (strings): the queue's cap in bytes
  /// per second, `0` for none.
  private func globalOptions() -> [String: String] {
    ["max-overall-download-limit": String(manager.rateLimit?.bytesPerSecond ?? 0)]
  }

  private func reply(_ status: Int, _ body: Any) -> HTTPResponse {
    let data = (try? JSONSerialization.data(withJSONObject: body)) ?? Data("{}".utf8)
    return .json(status, data)
  }

  private static func failure(id: Any, code: Int, message: String) -> [String: Any] {
    ["jsonrpc": "2.0", "id": id, "error": ["code": code, "message": message]]
  }
}
