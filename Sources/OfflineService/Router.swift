import Foundation
import OfflineKit

/// Sends an admitted request to its route by the first path segment.
struct Router: Sendable {
  let content: ContentRoute
  let api: APIRoute
  let rpc: AriaRPC

  init(manager: OfflineManager, events: EventBroadcaster, token: String?) {
    content = ContentRoute(manager: manager)
    api = APIRoute(manager: manager, events: events)
    rpc = AriaRPC(manager: manager, events: events, token: token)
  }

  /// The answer to `request`.
  func respond(to request: HTTPRequest) async -> HTTPResponse {
    guard let segments = request.safeSegments else {
      return .text(400, "The path names a file outside the service's folders.")
    }
    if segments.count <= 1, let page = PageRoute.respond(to: request, name: segments.first ?? "") {
      return page
    }
    switch segments.first {
    case "content":
      return await content.respond(to: request, segments: Array(segments.dropFirst()))
    case "jsonrpc" where segments.count == 1:
      return await rpc.respond(to: request)
    case "api":
      return await api.respond(to: request, segments: Array(segments.dropFirst()))
    default:
      return .text(404, "Nothing is at \(RequestGuard.printable(request.rawPath)).")
    }
  }
}
