#if canImport(Glibc)
  import Glibc
#endif

/// Thin wrappers over the POSIX socket calls the test servers need; raw descriptors stay
/// internal to `TestSupport`.
enum Socket {
  /// A TCP socket bound to 127.0.0.1 on `port` (0 lets the kernel choose), not yet listening.
  static func bound(port: Int = 0) throws -> Int32 {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard fd >= 0 else { throw TestSupportError.systemCall("socket", errno: errno) }
    var one: Int32 = 1
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
    var address = loopback(port: port)
    let result = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard result == 0 else {
      let code = errno
      close(fd)
      throw TestSupportError.systemCall("bind(127.0.0.1:\(port))", errno: code)
    }
    return fd
  }

  /// A TCP socket listening on 127.0.0.1 on a port the kernel chose.
  static func listening(backlog: Int32 = 128) throws -> Int32 {
    let fd = try bound()
    guard listen(fd, backlog) == 0 else {
      let code = errno
      close(fd)
      throw TestSupportError.systemCall("listen", errno: code)
    }
    return fd
  }

  /// The local port a bound socket has.
  static func localPort(of fd: Int32) throws -> Int {
    var address = sockaddr_in()
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let result = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
    }
    guard result == 0 else { throw TestSupportError.systemCall("getsockname", errno: errno) }
    return Int(UInt16(bigEndian: address.sin_port))
  }

  /// Whether something accepts a TCP connection on 127.0.0.1:`port` right now.
  static func accepts(port: Int) -> Bool {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard fd >= 0 else { return false }
    defer { close(fd) }
    var address = loopback(port: port)
    let result = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    return result == 0
  }

  /// Sends every byte of `bytes`, retrying partial writes and `EINTR`.
  ///
  /// Uses `MSG_NOSIGNAL`, so a peer that went away gives `false` instead of `SIGPIPE`.
  static func sendAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Bool {
    guard var pointer = bytes.baseAddress else { return true }
    var remaining = bytes.count
    while remaining > 0 {
      let sent = send(fd, pointer, remaining, Int32(MSG_NOSIGNAL))
      if sent < 0 {
        if errno == EINTR { continue }
        return false
      }
      pointer += sent
      remaining -= sent
    }
    return true
  }

  /// Sends the UTF-8 bytes of `text` (see `sendAll(_:_:)`).
  static func sendAll(_ fd: Int32, _ text: String) -> Bool {
    var text = text
    return text.withUTF8 { sendAll(fd, UnsafeRawBufferPointer($0)) }
  }

  /// Sets a send and receive timeout so a stuck peer cannot block a thread forever.
  static func setTimeouts(_ fd: Int32, seconds: Int) {
    var value = timeval(tv_sec: seconds, tv_usec: 0)
    let size = socklen_t(MemoryLayout<timeval>.size)
    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &value, size)
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &value, size)
  }

  private static func loopback(port: Int) -> sockaddr_in {
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = UInt16(port).bigEndian
    address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
    return address
  }
}
