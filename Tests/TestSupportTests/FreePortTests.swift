import Foundation
import Testing

@testable import TestSupport

@Suite struct FreePortTests {
  @Test func returnsAPortThatCanBeBoundAgain() throws {
    let port = try FreePort.make()
    #expect(port > 0 && port < 65536)
    let fd = try Socket.bound(port: port)
    close(fd)
  }
}
