import Foundation
import TestTiming
import Testing

@testable import TestSupport

@Suite(.timed) struct FreePortTests {
  @Test func returnsAPortThatCanBeBoundAgain() throws {
    let port = try FreePort.make()
    #expect(port > 0 && port < 65536)
    let fd = try Socket.bound(port: port)
    close(fd)
  }
}
