import Foundation
import TestTiming
import Testing

@testable import OfflineHTTP

/// `ContentDisposition` (RFC 6266, RFC 8187) and hostile header values: names come back
/// raw (the caller sanitises), malformed values never crash. Row "Content-Disposition
/// filename with ../" of docs/Reliability.md (with `FaultNameTests` in OfflineCLITests,
/// which checks that no local name is ever taken from it).
@Suite(.timed) struct FaultHeaderTests {
  @Test func readsTheTypeAndAQuotedOrTokenFileName() {
    let quoted = ContentDisposition("attachment; filename=\"movie 1.mp4\"")
    #expect(quoted?.type == "attachment")
    #expect(quoted?.fileName == "movie 1.mp4")
    #expect(ContentDisposition("INLINE;filename=a.bin")?.type == "inline")
    #expect(ContentDisposition("inline")?.fileName == nil)
    #expect(ContentDisposition("attachment; filename=\"a\\\"b\"")?.fileName == "a\"b")
  }

  @Test func prefersTheExtendedNameDecodingUTF8AndLatin1() {
    let both = "attachment; filename=\"fallback.txt\"; filename*=UTF-8''na%C3%AFve%20file.txt"
    #expect(ContentDisposition(both)?.fileName == "naïve file.txt")
    #expect(ContentDisposition("attachment; filename*=iso-8859-1'en'%E9t%E9")?.fileName == "été")
    // An undecodable extended value falls back to the plain one.
    let broken = "attachment; filename*=UTF-8''%ZZ; filename=plain.txt"
    #expect(ContentDisposition(broken)?.fileName == "plain.txt")
    #expect(ContentDisposition("attachment; filename*=KOI8-R''abc")?.fileName == nil)
  }

  @Test func returnsHostileNamesRawForTheCallerToSanitise() {
    #expect(
      ContentDisposition("attachment; filename=\"../../etc/passwd\"")?.fileName
        == "../../etc/passwd")
    #expect(
      ContentDisposition("attachment; filename*=UTF-8''%2E%2E%2F%2E%2E%2Fescape")?.fileName
        == "../../escape")
    #expect(ContentDisposition("attachment; filename=\"/etc/shadow\"")?.fileName == "/etc/shadow")
  }

  @Test func malformedValuesAreRefusedOrSkippedNeverACrash() {
    #expect(ContentDisposition("") == nil)
    #expect(ContentDisposition("; filename=a") == nil)
    #expect(ContentDisposition("attachment; filename=\"unterminated")?.fileName == nil)
    #expect(ContentDisposition("attachment; ; =; filename=ok.txt")?.fileName == "ok.txt")
    #expect(ContentDisposition("attachment; filename*=UTF-8''%C3")?.fileName == nil)
    #expect(ContentDisposition("attachment; filename=\"\\")?.fileName == nil)
  }

  /// Pins the crash `scripts/fuzz headers` found: Foundation's `DateFormatter` trapped
  /// ("Incorrect range CFRange") on this non-ASCII `Retry-After`, so a hostile server could
  /// crash the process. `HTTPDate` now parses by hand.
  @Test func aNonASCIIRetryAfterIsRefusedWithoutTrapping() {
    let bytes = Data(base64Encoded: "V92BIt0gneV3Z2sikw==")!
    #expect(RetryAfter.delay(from: String(decoding: bytes, as: UTF8.self)) == nil)
    #expect(HTTPDate.parse("Sun, 06 Nov 1994 08:49:37 GMT")?.timeIntervalSince1970 == 784_111_777)
    // What it writes, it reads: the service's `Last-Modified`, any day of the week.
    for seconds in [784_111_777, 0, 951_782_400, 1_798_761_599] {
      let text = HTTPDate.format(secondsSince1970: seconds)
      #expect(HTTPDate.parse(text)?.timeIntervalSince1970 == TimeInterval(seconds), "\(text)")
    }
    #expect(HTTPDate.format(secondsSince1970: 784_111_777) == "Sun, 06 Nov 1994 08:49:37 GMT")
    #expect(HTTPDate.parse("Mon, 29 Feb 2021 00:00:00 GMT") == nil)
    #expect(HTTPDate.parse("Sun, 06 Nov 1994 08:49:37 UTC") == nil)
    #expect(HTTPDate.parse("Sun, 06 Nov 1994 24:00:00 GMT") == nil)
  }

  @Test func hostileContentRangeRetryAfterAndETagValuesAreRefused() {
    #expect(ContentRange("bytes 99999999999999999999-1/2") == nil)
    #expect(ContentRange("bytes -1-5/10") == nil)
    #expect(ContentRange("bytes 5-1/10") == nil)
    #expect(ContentRange("bytes 0-10/10") == nil)
    #expect(RetryAfter.delay(from: "-5") == nil)
    #expect(RetryAfter.delay(from: "99999999999999999999") == nil)
    #expect(EntityTag("\"a\"b\"") == nil)
    #expect(EntityTag("W/") == nil)
  }
}
