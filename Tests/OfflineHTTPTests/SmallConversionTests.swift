import Foundation
import OfflineHTTP
import OfflineLocks
import TestTiming
import Testing

/// The conversions every module shares, written once: a duration in seconds or milliseconds
/// (timeouts handed to libcurl and SQLite, rates, cache ages) and the http(s) scheme check
/// (the transports, the redirect policy, the manager's sources, a rebuilt index).
@Suite(.timed) struct SmallConversionTests {
  @Test func aDurationIsItsSecondsAndItsMillisecondsTowardZero() {
    #expect(Duration.milliseconds(1500).inSeconds == 1.5)
    #expect(Duration.microseconds(2500).inMilliseconds == 2)
    #expect(Duration.seconds(-3).inMilliseconds == -3000)
    #expect(Duration.zero.inSeconds == 0)
  }

  /// A duration too long for milliseconds in an `Int` saturates instead of trapping (libcurl
  /// takes a `long`, SQLite's busy timeout an `Int32`).
  @Test func aDurationTooLongForMillisecondsSaturates() {
    #expect(Duration.seconds(Int64.max).inMilliseconds == .max)
    #expect(Duration.seconds(Int64.min).inMilliseconds == .min)
  }

  @Test func onlyHTTPAndHTTPSInAnyCaseAreHTTPSchemes() {
    #expect(URL.isHTTPScheme("http") && URL.isHTTPScheme("HTTPS"))
    #expect(!URL.isHTTPScheme("ftp") && !URL.isHTTPScheme("") && !URL.isHTTPScheme("httpx"))
    #expect(URL(string: "https://example.com/a")!.isHTTPWithHost)
    #expect(!URL(string: "http:/a")!.isHTTPWithHost, "no host")
    #expect(!URL(string: "file:///etc/passwd")!.isHTTPWithHost)
  }
}
