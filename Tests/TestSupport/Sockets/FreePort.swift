#if canImport(Glibc)
  import Glibc
#endif

/// Finds a TCP port on 127.0.0.1 that is free right now.
///
/// The port is released before `make()` returns, so another process could take it in
/// between; servers that bind it later should retry on "address in use".
public enum FreePort {
  /// Binds 127.0.0.1:0, reads the port the kernel picked, and closes the socket.
  ///
  /// - Throws: `TestSupportError.systemCall` when a socket call fails.
  public static func make() throws -> Int {
    let fd = try Socket.bound()
    defer { close(fd) }
    return try Socket.localPort(of: fd)
  }
}
