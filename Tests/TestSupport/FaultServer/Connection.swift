import Foundation

/// Answers the requests of one client connection according to the routes.
struct Connection {
  /// The connected socket.
  let fd: Int32
  /// The server state (routes, counters, recorded requests).
  let core: FaultServerCore

  /// Records `request`, sends the reply its route calls for, and says whether the
  /// connection stays open for another request.
  func respond(to request: RecordedRequest) -> Bool {
    let route = request.route
    let (behaviour, index) = core.state.withLock { state in
      state.requests.append(request)
      let index = state.hits[route, default: 0]
      state.hits[route] = index + 1
      return (state.routes[route], index)
    }

    var reply = Reply.text(404, "Not Found\n")
    var faults = FaultServer.Faults()
    var resolved = Self.resolve(behaviour, index: index)
    var holdsPlace = false
    if case .overloaded(let capacity, let status, let then)? = resolved {
      holdsPlace = core.state.withLock { state in
        guard state.overloadedAnswering < capacity else {
          state.overloadRefusals += 1
          return false
        }
        state.overloadedAnswering += 1
        return true
      }
      resolved =
        holdsPlace
        ? Self.resolve(then, index: index)
        : .status(code: status, body: Data("Too busy, try again later.\n".utf8))
    }
    defer { if holdsPlace { core.state.withLock { $0.overloadedAnswering -= 1 } } }
    while case .delayed(let seconds, let then)? = resolved {
      guard core.pause(seconds) else { return false }
      resolved = Self.resolve(then, index: index)
    }
    switch resolved {
    case .raw(let bytes)?:
      _ = bytes.withUnsafeBytes { Socket.sendAll(fd, $0) }
      return false
    case .hugeHeaders(let headerBytes, let body)?:
      reply = .fixed(200, headers: Self.padding(headerBytes), body: body)
    case .resource(let resource)?:
      reply = .resource(resource, request: request)
      faults = resource.faults
    case .status(let code, let headers, let body)?:
      reply = .status(code, headers: headers, body: body)
    case .redirect(let code, let location)?:
      reply = .text(code, "Redirecting to \(location)\n", headers: [("Location", location)])
    case .sequence?, .delayed?, .overloaded?, nil:
      break
    }

    let sendsBody = request.method != "HEAD"
    let isCut = sendsBody && reply.isEntity && faults.cuts && claimCut(route, faults)
    var length = reply.declaredLength ?? reply.range.count
    if isCut { length += faults.declaredExtraLength }
    let closes = isCut || length != reply.range.count || !request.wantsKeepAlive

    var head = "HTTP/1.1 \(reply.status) \(Reply.reason(reply.status))\r\n"
    for (name, value) in reply.headers { head += "\(name): \(value)\r\n" }
    head += "Content-Length: \(length)\r\n"
    if closes {
      head += "Connection: close\r\n"
    } else if request.version == "HTTP/1.0" {
      head += "Connection: keep-alive\r\n"
    }
    head += "\r\n"
    guard Socket.sendAll(fd, head) else { return false }
    guard sendsBody else { return !closes }

    var plan = BodyWriter.Plan()
    if reply.isEntity {
      plan.cutAfter = isCut ? faults.cutAfterBodyBytes : nil
      plan.stallAfter = faults.stallAfterBodyBytes
      plan.stallSeconds = faults.stallSeconds
      plan.bytesPerSecond = faults.bytesPerSecond
    }
    let writer = BodyWriter(fd: fd, core: core, plan: plan)
    guard writer.send(reply.payload, range: reply.range) else { return false }
    return !closes
  }

  /// Header fields of about 1 KB each that add up to `bytes`.
  private static func padding(_ bytes: Int) -> [(String, String)] {
    let line = String(repeating: "p", count: 1000)
    return (0..<max(1, bytes / 1024)).map { ("X-Padding-\($0)", line) }
  }

  /// Takes one of the route's cut allowances; false once `cutResponses` are used up.
  private func claimCut(_ route: String, _ faults: FaultServer.Faults) -> Bool {
    core.state.withLock { state in
      let used = state.cuts[route, default: 0]
      guard used < faults.cutResponses else { return false }
      state.cuts[route] = used + 1
      return true
    }
  }

  /// The behaviour for the `index`-th request (from 0), looking through `.sequence`s;
  /// nested sequences use the same index. An empty sequence behaves like no route.
  static func resolve(_ behaviour: FaultServer.Behaviour?, index: Int) -> FaultServer.Behaviour? {
    guard case .sequence(let list)? = behaviour else { return behaviour }
    guard let last = list.indices.last else { return nil }
    return resolve(list[min(index, last)], index: index)
  }
}
