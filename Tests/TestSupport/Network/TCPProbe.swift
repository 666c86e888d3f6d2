#if canImport(Glibc)
  import Glibc
#endif

/// Checks whether something accepts TCP connections at an IPv4 address, with a time limit.
///
/// For test hosts this process created itself (loopback or a `NetworkNamespace`); it opens a
/// connection and closes it at once.
public enum TCPProbe {
  /// Whether a TCP connection to `address`:`port` succeeds within `timeout` seconds.
  ///
  /// - Parameters:
  ///   - address: A numeric IPv4 address such as `10.213.7.2`.
  ///   - port: The TCP port.
  ///   - timeout: Seconds to wait for the handshake; an unanswered SYN gives `false` then.
  public static func accepts(address: String, port: Int, timeout: Double) -> Bool {
    var target = sockaddr_in()
    target.sin_family = sa_family_t(AF_INET)
    target.sin_port = UInt16(port).bigEndian
    guard inet_pton(AF_INET, address, &target.sin_addr) == 1 else { return false }
    let type =
      Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
      | Int32(SOCK_NONBLOCK.rawValue)
    let fd = socket(AF_INET, type, 0)
    guard fd >= 0 else { return false }
    defer { close(fd) }
    let result = withUnsafePointer(to: &target) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    if result == 0 { return true }
    guard errno == EINPROGRESS else { return false }
    var poller = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
    guard poll(&poller, 1, Int32(timeout * 1000)) == 1 else { return false }
    var failure: Int32 = 0
    var length = socklen_t(MemoryLayout<Int32>.size)
    guard getsockopt(fd, SOL_SOCKET, SO_ERROR, &failure, &length) == 0 else { return false }
    return failure == 0
  }
}
