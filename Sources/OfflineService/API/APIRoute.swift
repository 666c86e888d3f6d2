import Foundation
import OfflineHTTP
import OfflineKit

/// `/api/…`: the JSON API over the manager (see `docs/API.md`).
///
/// | request | answer |
/// |---|---|
/// | `GET /api/contents` | every content, in queue order |
/// | `POST /api/contents` | adds and queues URLs (``AddRequest``): 201 with the contents |
/// | `GET /api/contents/<id>` | one content |
/// | `POST /api/contents/<id>/<action>` | `pause`, `resume`, `cancel`, `delete`, `download`, `forget`; 409 naming the state when the state table refuses |
/// | `POST /api/contents/<id>/verify` | re-hashes every file (``IntegrityJSON``); 409 unless downloaded |
/// | `POST /api/contents/<id>/repair` | fetches only what is wrong; `{"redownload": true}` queues a full download instead when the origin changed |
/// | `GET /api/events` | Server-Sent Events (``EventText``) |
/// | `GET /api/by-url?url=URL` | the downloaded file held for origin `URL` (`PeerCopy`: `id`, `state`, `length`, `sha256`, `etag`, `contentPath`, `chunkSize`, `chunkSHA256`), 404 when none: another machine's `--peer` |
/// | `GET /api/rate-limit` | the running queue's cap: `{"limit": BYTES_PER_SECOND or null}` |
/// | `POST /api/rate-limit` | sets it (``RateLimitText``): `{"limit": "2M"}`, `{"limit": null}` clears it |
struct APIRoute: Sendable {
  let manager: OfflineManager
  let events: EventBroadcaster

  /// Answers `request`, whose path segments after `api` are `segments`.
  func respond(to request: HTTPRequest, segments: [String]) async -> HTTPResponse {
    switch (request.method, segments.count, segments.first) {
    case ("GET", 1, "events"), ("HEAD", 1, "events"):
      let stream = await events.subscribe()
      return HTTPResponse(
        status: 200,
        headers: [
          ("Content-Type", "text/event-stream"), ("Cache-Control", "no-store"),
          ("X-Accel-Buffering", "no"),
        ], body: .stream(stream))
    case ("GET", 1, "contents"), ("HEAD", 1, "contents"):
      return await answer { () throws(OfflineError) in
        .json(200, APIJSON.encode(try await manager.snapshots().map(ContentProjection.init)))
      }
    case ("POST", 1, "contents"):
      return await add(request.body)
    case ("GET", 1, "by-url"), ("HEAD", 1, "by-url"):
      return await peerCopy(request.query["url"])
    case ("GET", 1, "rate-limit"), ("HEAD", 1, "rate-limit"):
      return rateLimitAnswer()
    case ("POST", 1, "rate-limit"):
      return await setRateLimit(request.body)
    case ("GET", 2, "contents"), ("HEAD", 2, "contents"):
      let id = segments[1]
      return await answer { () throws(OfflineError) in
        .json(200, APIJSON.encode(ContentProjection(try await manager.snapshot(id: id))))
      }
    case ("POST", 3, "contents") where segments[2] == "verify":
      return await verify(id: segments[1])
    case ("POST", 3, "contents") where segments[2] == "repair":
      return await repair(id: segments[1], body: request.body)
    case ("POST", 3, "contents"):
      guard let action = APIAction(rawValue: segments[2]) else {
        return APIJSON.error(
          404,
          "Unknown action '\(RequestGuard.printable(segments[2]))'; the actions are "
            + APIAction.allCases.map(\.rawValue).joined(separator: ", ") + ", verify, repair.",
          kind: "unknownAction")
      }
      return await perform(action, id: segments[1])
    case (_, 1, "events"), (_, 1, "contents"), (_, 2, "contents"), (_, 3, "contents"),
      (_, 1, "rate-limit"), (_, 1, "by-url"):
      return APIJSON.error(405, "\(request.method) is not allowed here.", kind: "methodNotAllowed")
    default:
      return APIJSON.error(
        404, "Nothing is at \(RequestGuard.printable(request.rawPath)).", kind: "notFound")
    }
  }

  /// The answer to `GET /api/by-url`: what is held for the origin URL `text`.
  private func peerCopy(_ text: String?) async -> HTTPResponse {
    guard let text, let url = URL(string: text), url.isHTTPWithHost else {
      return APIJSON.error(
        400, "Name an http or https URL: /api/by-url?url=URL.", kind: "invalidRequest")
    }
    return await answer { () throws(OfflineError) in
      guard let copy = try await manager.peerCopy(of: url) else {
        return APIJSON.error(
          404, "No downloaded file is held for \(url.redactedForDisplay).", kind: "notFound")
      }
      return .json(200, APIJSON.encode(copy))
    }
  }

  private func add(_ body: Data) async -> HTTPResponse {
    let parsed: AddRequest
    do {
      parsed = try JSONDecoder().decode(AddRequest.self, from: body)
    } catch {
      return APIJSON.error(
        400, "The body must be JSON with 'urls', a list of http or https URLs.",
        kind: "invalidRequest")
    }
    switch parsed.resolved() {
    case .failure(let error):
      return APIJSON.error(400, error.message, kind: "invalidRequest")
    case .success(let (sources, config)):
      return await answer { () throws(OfflineError) in
        let contents = try await manager.add(sources, configuration: config)
        var shown: [ContentProjection] = []
        for content in contents {
          let snapshot = try await manager.snapshot(id: content.id)
          shown.append(ContentProjection(snapshot))
          events.send(EventText.event("content", ContentProjection(snapshot)))
        }
        return .json(201, APIJSON.encode(shown))
      }
    }
  }

  /// Sets or clears the queue's cap from `{"limit": …}`; a body without a rate changes
  /// nothing and answers 400 with what to give.
  private func setRateLimit(_ body: Data) async -> HTTPResponse {
    guard let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any],
      let limit = object["limit"]
    else {
      return APIJSON.error(
        400, #"The body must be JSON with 'limit', such as {"limit": "2M"} or {"limit": null}."#,
        kind: "invalidRequest")
    }
    switch RateLimitText.parse(limit) {
    case .failure(let failure):
      return APIJSON.error(400, failure.message, kind: "invalidRequest")
    case .success(let rate):
      // Applied here only: nothing is kept, so it cannot fail.
      try? await manager.setRateLimit(rate)
      return rateLimitAnswer()
    }
  }

  /// `{"limit": BYTES_PER_SECOND}`, or `{"limit": null}` for none.
  private func rateLimitAnswer() -> HTTPResponse {
    let limit: Any = manager.rateLimit.map { NSNumber(value: $0.bytesPerSecond) } ?? NSNull()
    let data = (try? JSONSerialization.data(withJSONObject: ["limit": limit])) ?? Data()
    return .json(200, data)
  }

  private func perform(_ action: APIAction, id: String) async -> HTTPResponse {
    await answer { () throws(OfflineError) in
      let content = try await manager.content(id: id)
      switch action {
      case .pause: try await content.suspend()
      case .resume: try await content.resume()
      case .cancel: try await content.cancel()
      case .delete: try await content.deleteOfflineData()
      case .download: try await content.download()
      case .forget:
        try await manager.forget(id: id)
        events.send(EventText.plain("forgotten", id))
        return .json(200, APIJSON.encode(["id": id, "forgotten": "true"]))
      }
      return .json(200, APIJSON.encode(ContentProjection(try await manager.snapshot(id: id))))
    }
  }

  /// Re-hashes every file of content `id`: 200 with what is wrong, whole or not.
  private func verify(id: String) async -> HTTPResponse {
    await answer { () throws(OfflineError) in
      let content = try await manager.content(id: id)
      return .json(200, APIJSON.encode(IntegrityJSON(try await content.verify())))
    }
  }

  /// Mends content `id`, fetching only what is wrong (`{"redownload": true}` in the body:
  /// its files deleted and a full download queued, for an origin that changed).
  private func repair(id: String, body: Data) async -> HTTPResponse {
    var redownload = false
    if !body.isEmpty {
      guard let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any],
        object.keys.allSatisfy({ $0 == "redownload" }),
        object["redownload"] == nil || object["redownload"] is Bool
      else {
        return APIJSON.error(
          400, #"The body must be empty or {"redownload": true}."#, kind: "invalidRequest")
      }
      redownload = object["redownload"] as? Bool ?? false
    }
    return await answer { () throws(OfflineError) in
      let content = try await manager.content(id: id)
      let report = try await content.repair(redownload: redownload)
      return .json(200, APIJSON.encode(IntegrityJSON(report)))
    }
  }

  /// Runs `body`, turning an ``OfflineError`` into its JSON answer.
  private func answer(_ body: () async throws(OfflineError) -> HTTPResponse) async
    -> HTTPResponse
  {
    do throws(OfflineError) {
      return try await body()
    } catch {
      return Self.response(for: error)
    }
  }

  /// The status and JSON for `error`: 409 naming the state for a refused transition.
  static func response(for error: OfflineError) -> HTTPResponse {
    switch error.kind {
    case .invalidTransition(_, let state):
      return APIJSON.error(409, error.description, kind: error.kindName, state: state)
    case .unknownContent: return APIJSON.error(404, error.description, kind: error.kindName)
    case .duplicateID: return APIJSON.error(409, error.description, kind: error.kindName)
    case .invalidURL, .invalidID: return APIJSON.error(400, error.description, kind: error.kindName)
    case .storeBusy: return APIJSON.error(503, error.description, kind: error.kindName)
    case .notVerifiable(let state):
      return APIJSON.error(409, error.description, kind: error.kindName, state: state)
    case .nothingRecorded, .originChanged:
      return APIJSON.error(409, error.description, kind: error.kindName)
    case .transfer: return APIJSON.error(502, error.description, kind: error.kindName)
    default: return APIJSON.error(500, error.description, kind: error.kindName)
    }
  }
}
