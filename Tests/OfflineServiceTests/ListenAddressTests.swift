import OfflineService
import TestTiming
import Testing

@Suite("Listen addresses", .timed)
struct ListenAddressTests {
  // Pins: `serve --listen` must read the forms users type and refuse names it would have to
  // resolve (the Host check compares against the address).
  @Test func readsIPv4IPv6AndLocalhost() {
    #expect(
      ListenAddress(parsing: "127.0.0.1:8380") == ListenAddress(host: "127.0.0.1", port: 8380))
    #expect(ListenAddress(parsing: "[::1]:9000") == ListenAddress(host: "::1", port: 9000))
    #expect(ListenAddress(parsing: "localhost:80") == ListenAddress(host: "127.0.0.1", port: 80))
    #expect(ListenAddress(parsing: "example.com:80") == nil)
    #expect(ListenAddress(parsing: "127.0.0.1:70000") == nil)
    #expect(ListenAddress(parsing: "::1:80") == nil)
  }

  // Pins: only loopback listeners may go without a token.
  @Test func onlyLoopbackAddressesCountAsLocal() {
    #expect(ListenAddress(parsing: "127.0.0.2:1")!.isLoopback)
    #expect(ListenAddress(parsing: "[::1]:1")!.isLoopback)
    #expect(!ListenAddress(parsing: "0.0.0.0:1")!.isLoopback)
    #expect(!ListenAddress(parsing: "[::]:1")!.isLoopback)
  }
}
