import CMicroHTTPD
import Foundation

/// The C callbacks libmicrohttpd calls, as static members (a global closure in Swift 6
/// would be actor-isolated); context travels through `Unmanaged` pointers.
enum ServerCallbacks {
  /// Called for each request: once with the headers (no state yet), once per piece of
  /// body, once when the body is in (the answer is then worked out by a task while the
  /// connection is suspended), and once more after it resumes (the answer is queued).
  static let access: MHD_AccessHandlerCallback = {
    cls, connection, url, method, _, uploadData, uploadSize, state in
    guard let cls, let connection, let url, let method, let uploadSize, let state else {
      return .NO
    }
    let context = Unmanaged<ServerContext>.fromOpaque(cls).takeUnretainedValue()
    guard let stored = state.pointee else {
      let request = HTTPRequest(
        method: String(cString: method).uppercased(), rawPath: String(cString: url),
        query: values(of: connection, kind: .GET_ARGUMENT_KIND, decoding: true),
        headers: values(of: connection, kind: .HEADER_KIND, decoding: false), body: Data())
      let pending = ConnectionRequest(request: request)
      state.pointee = Unmanaged.passRetained(pending).toOpaque()
      if let refusal = context.handlers.admit(request) {
        pending.phase = .answered
        return queue(refusal, on: connection, context)
      }
      let declared = request.header("content-length").flatMap { Int64($0) } ?? 0
      if declared > Int64(context.maximumBodyBytes) {
        pending.phase = .answered
        return queue(
          .text(413, "The request body is larger than \(context.maximumBodyBytes) bytes."),
          on: connection, context)
      }
      return .YES
    }
    let pending = Unmanaged<ConnectionRequest>.fromOpaque(stored).takeUnretainedValue()
    if uploadSize.pointee > 0 {
      let count = uploadSize.pointee
      uploadSize.pointee = 0
      if case .answered = pending.phase { return .YES }  // refused: the body is dropped
      guard let uploadData,
        pending.append(
          UnsafeRawPointer(uploadData).assumingMemoryBound(to: UInt8.self), count: count,
          limit: context.maximumBodyBytes)
      else {
        return .NO  // a chunked body past the limit: drop the connection
      }
      return .YES
    }
    switch pending.phase {
    case .answered, .working:
      return .YES
    case .ready(let response):
      pending.phase = .answered
      return queue(response, on: connection, context)
    case .reading:
      let handle = ConnectionHandle(pointer: connection)
      pending.phase = .working
      handle.suspend()
      guard context.begin(pending, on: handle) else {
        handle.resume()
        pending.phase = .ready(.text(503, "The service is stopping."))
        return .YES
      }
      let request = pending.request
      Task {
        let response = await context.handlers.respond(request)
        context.end(pending, with: response)
      }
      return .YES
    }
  }

  /// Called when a request is done (answered, or the connection broke): frees its state.
  static let completed: MHD_RequestCompletedCallback = { _, _, state, _ in
    guard let state, let pointer = state.pointee else { return }
    Unmanaged<ConnectionRequest>.fromOpaque(pointer).release()
    state.pointee = nil
  }

  /// Leaves the URL and the query as the client sent them: the service decodes them itself
  /// (libmicrohttpd's decoding would turn `%2e%2e%2f` into `../` before we could look).
  static let keepEscaped:
    @convention(c) (UnsafeMutableRawPointer?, OpaquePointer?, UnsafeMutablePointer<CChar>?)
      -> Int = { _, _, uri in
        guard let uri else { return 0 }
        return strlen(uri)
      }

  /// Reads a streaming body for libmicrohttpd.
  static let readStream: MHD_ContentReaderCallback = { cls, _, buffer, max in
    guard let cls, let buffer else { return offline_mhd_end_with_error() }
    let box = Unmanaged<StreamConnection>.fromOpaque(cls).takeUnretainedValue()
    guard let count = box.read(into: UnsafeMutableRawBufferPointer(start: buffer, count: max))
    else { return offline_mhd_end_of_stream() }
    return count
  }

  /// Frees a streaming body once the response is done or the connection is gone.
  static let freeStream: MHD_ContentReaderFreeCallback = { cls in
    guard let cls else { return }
    let box = Unmanaged<StreamConnection>.fromOpaque(cls).takeRetainedValue()
    box.context.detach(box)
    box.stream.close()
  }

  /// Queues `response` on `connection`; every response says `nosniff`, so no browser takes
  /// an answer for another type than the one it names.
  static func queue(
    _ response: HTTPResponse, on connection: OpaquePointer, _ context: ServerContext
  ) -> MHD_Result {
    let made: OpaquePointer?
    switch response.body {
    case .data(let data):
      made = data.withUnsafeBytes { bytes in
        MHD_create_response_from_buffer(
          bytes.count, UnsafeMutableRawPointer(mutating: bytes.baseAddress),
          .RESPMEM_MUST_COPY)
      }
    case .file(let descriptor, let offset, let length):
      made = MHD_create_response_from_fd_at_offset64(UInt64(length), descriptor, UInt64(offset))
      if made == nil { close(descriptor) }
    case .stream(let stream, let length):
      let box = StreamConnection(
        stream: stream, connection: ConnectionHandle(pointer: connection), context: context)
      box.attach()
      context.attach(box)
      let retained = Unmanaged.passRetained(box)
      made = MHD_create_response_from_callback(
        length.map { UInt64($0) } ?? offline_mhd_size_unknown(), 64 << 10, readStream,
        retained.toOpaque(), freeStream)
      if made == nil {
        retained.release()
        stream.close()
      }
    }
    guard let made else { return .NO }
    defer { MHD_destroy_response(made) }
    for (name, value) in response.headers {
      _ = MHD_add_response_header(made, name, value)
    }
    if !response.headers.contains(where: { $0.0.lowercased() == "x-content-type-options" }) {
      _ = MHD_add_response_header(made, "X-Content-Type-Options", "nosniff")
    }
    return MHD_queue_response(connection, UInt32(response.status), made)
  }

  /// The headers or query arguments of a request; header names in lower case.
  private static func values(
    of connection: OpaquePointer, kind: MHD_ValueKind, decoding: Bool
  ) -> [String: String] {
    let collector = ValueCollector(decoding: decoding)
    let pointer = Unmanaged.passUnretained(collector).toOpaque()
    _ = MHD_get_connection_values(connection, kind, collect, pointer)
    return collector.values
  }

  private static let collect: MHD_KeyValueIterator = { cls, _, key, value in
    guard let cls, let key else { return .YES }
    let collector = Unmanaged<ValueCollector>.fromOpaque(cls).takeUnretainedValue()
    collector.add(String(cString: key), value.map { String(cString: $0) } ?? "")
    return .YES
  }
}

/// Gathers key-value pairs during one `MHD_get_connection_values` call, on one thread.
private final class ValueCollector {
  let decoding: Bool
  var values: [String: String] = [:]

  init(decoding: Bool) { self.decoding = decoding }

  func add(_ key: String, _ value: String) {
    if decoding {
      let decode = { (text: String) in
        text.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? text
      }
      values[decode(key)] = decode(value)
    } else {
      let name = key.lowercased()
      values[name] = values[name].map { $0 + ", " + value } ?? value
    }
  }
}
