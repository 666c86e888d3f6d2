import Foundation
import OfflineHTTP
import TestTiming
import Testing

@Suite(.timed) struct HeaderParsingTests {
  @Test func parsesASatisfiedContentRange() {
    #expect(
      ContentRange("bytes 100-199/1000") == .satisfied(first: 100, last: 199, completeLength: 1000))
    #expect(ContentRange("bytes 0-0/*") == .satisfied(first: 0, last: 0, completeLength: nil))
  }

  @Test func parsesTheUnsatisfiedFormOfA416() {
    #expect(ContentRange("bytes */1000") == .unsatisfied(completeLength: 1000))
  }

  @Test func refusesMalformedContentRanges() {
    for bad in [
      "", "bytes", "bytes 1-2", "bytes 5-1/10", "bytes 0-10/10", "items 0-1/2", "bytes -1-2/3",
      "bytes */*", "bytes 1-2/x", "bytes 99999999999999999999-1/2",
    ] {
      #expect(ContentRange(bad) == nil, "\(bad)")
    }
  }

  @Test func readsRetryAfterInSecondsAndAsADate() {
    #expect(RetryAfter.delay(from: "120") == .seconds(120))
    let now = Date(timeIntervalSince1970: 784_111_777)  // Sun, 06 Nov 1994 08:49:37 GMT
    let delay = RetryAfter.delay(from: "Sun, 06 Nov 1994 08:50:37 GMT", now: now)
    #expect(delay == .seconds(60))
    #expect(RetryAfter.delay(from: "Sun, 06 Nov 1994 08:00:00 GMT", now: now) == .zero)
    #expect(RetryAfter.delay(from: "soon") == nil)
    #expect(RetryAfter.delay(from: "-5") == nil)
  }

  @Test func tellsStrongFromWeakEntityTags() {
    #expect(EntityTag("\"abc\"")?.isWeak == false)
    #expect(EntityTag("W/\"abc\"")?.isWeak == true)
    #expect(EntityTag("abc") == nil)
    #expect(EntityTag("\"a\"b\"") == nil)
  }
}

@Suite(.timed) struct RedirectPolicyTests {
  let policy = RedirectPolicy(maximumCount: 3)
  let https = URL(string: "https://example.test/a/b")!

  @Test func resolvesRelativeLocations() throws {
    let next = try policy.nextURL(from: https, location: "../c?x=1", hops: 0)
    #expect(next.absoluteString == "https://example.test/c?x=1")
  }

  @Test func refusesOtherSchemes() {
    for target in ["ftp://example.test/f", "file:///etc/passwd", "gopher://x/"] {
      #expect(throws: HTTPError.self) { try policy.nextURL(from: https, location: target, hops: 0) }
    }
  }

  @Test func refusesHTTPSDowngrade() {
    #expect(throws: HTTPError.self) {
      try policy.nextURL(from: https, location: "http://example.test/a", hops: 0)
    }
  }

  @Test func allowsHTTPToHTTPS() throws {
    let http = URL(string: "http://example.test/a")!
    #expect(
      try policy.nextURL(from: http, location: "https://example.test/a", hops: 0).scheme == "https")
  }

  @Test func stopsAtTheLimit() {
    do {
      _ = try policy.nextURL(from: https, location: "/again", hops: 3)
      Issue.record("followed a fourth redirect")
    } catch {
      #expect(error.kind == .tooManyRedirects(3))
    }
  }
}

@Suite(.timed) struct RedactionTests {
  @Test func messagesNeverShowTokens() {
    let url = URL(string: "https://user:secret@example.test/file?token=abc#frag")!
    #expect(url.redactedForDisplay == "https://example.test/file?…")
    let error = HTTPError(.cannotConnect, url: url)
    #expect(!error.description.contains("secret"))
    #expect(!error.description.contains("abc"))
  }

  @Test func findsFieldsWhateverTheCaseOfTheirName() {
    let headers: HTTPHeaders = ["Content-Length": "10", "ETAG": "\"a\"", "x-Ünïcode": "1"]
    #expect(headers["content-length"] == "10")
    #expect(headers["CONTENT-LENGTH"] == "10")
    #expect(headers["etag"] == "\"a\"")
    #expect(headers["x-Ünïcode"] == "1")
    // Only ASCII letters fold: "[" and "{" differ by the same bit as "A" and "a".
    let brackets: HTTPHeaders = ["x[": "1"]
    #expect(brackets["x{"] == nil)
    #expect(headers["content-lengt"] == nil)
    #expect(headers["content-length2"] == nil)
    #expect(headers.values(for: "etag") == ["\"a\""])
  }
}
