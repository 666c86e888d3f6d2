import Foundation
import OfflineHTTP
import TestTiming
import Testing

/// The request options as a user writes them (curl's conventions), and the bad input that
/// must be refused naming the option, never echoing a secret.
@Suite(.timed) struct RequestOptionParsingTests {
  @Test func aHeaderLineSplitsAtItsFirstColonAndTrimsTheValue() throws {
    let field = try HTTPHeaders.Field(parsingHeaderLine: "Authorization:  Bearer a:b ")
    #expect(field.name == "Authorization")
    #expect(field.value == "Bearer a:b")
  }

  @Test(arguments: [
    "NoColonHere", ": value", "Bad Name: x", "X-A: one\r\nX-Injected: two", "X-A: a\nb",
  ])
  func malformedHeaderLinesAreRefusedWithoutEchoingTheValue(line: String) {
    #expect(throws: RequestOptionError.self) { try HTTPHeaders.Field(parsingHeaderLine: line) }
    do {
      _ = try HTTPHeaders.Field(parsingHeaderLine: line)
    } catch {
      #expect(error.option == "--header")
      #expect(!error.description.contains("Injected: two"))
    }
  }

  @Test func ratesReadAsCurlWritesThem() throws {
    #expect(try ByteRate(parsing: "500k").bytesPerSecond == 512_000)
    #expect(try ByteRate(parsing: "2M").bytesPerSecond == 2 << 20)
    #expect(try ByteRate(parsing: "1.5M").bytesPerSecond == 1_572_864)
    #expect(try ByteRate(parsing: "1G").bytesPerSecond == 1 << 30)
    #expect(try ByteRate(parsing: "4096").bytesPerSecond == 4096)
    #expect(ByteRate(bytesPerSecond: 2 << 20).description == "2 MiB/s")
  }

  @Test(arguments: ["", "fast", "-1M", "0", "2MB", "1..5k", "1e3k", "99999999999G"])
  func textsThatAreNotRatesAreRefused(text: String) {
    #expect(throws: RequestOptionError.self) { try ByteRate(parsing: text) }
  }

  @Test func aUserWithoutAPasswordLeavesThePasswordToAsk() throws {
    let withPassword = try Credentials.parse("ana:se:cret")
    #expect(withPassword.user == "ana" && withPassword.password == "se:cret")
    let without = try Credentials.parse("ana")
    #expect(without.user == "ana" && without.password == nil)
    #expect(throws: RequestOptionError.self) { try Credentials.parse(":secret") }
    #expect(throws: RequestOptionError.self) { try Credentials(user: "", password: "x") }
  }

  @Test func proxiesNameTheirSchemeAndHideTheirPassword() throws {
    let plain = try Proxy(parsing: "proxy.example:3128")
    #expect(plain.scheme == .http)
    let socks = try Proxy(parsing: "socks5h://user:pw@127.0.0.1:1080")
    #expect(socks.scheme == .socks5h)
    #expect(socks.redactedDescription == "socks5h://user:<redacted>@127.0.0.1:1080")
    do {
      _ = try Proxy(parsing: "gopher://proxy.example")
      Issue.record("an unknown proxy scheme was accepted")
    } catch {
      #expect(error.description.contains("gopher"))
    }
  }

  @Test func aCookiesFileIsCheckedLineByLine() throws {
    let good = """
      # Netscape HTTP Cookie File
      .example.com\tTRUE\t/\tFALSE\t0\tsession\tabc
      #HttpOnly_example.com\tFALSE\t/course\tTRUE\t1999999999\tid\tx=y

      """
    #expect(try CookieFile.validate(good, path: "c.txt") == 2)
    let bad = "# comment\nexample.com\tTRUE\t/\tFALSE\tnever\tsession\tabc\n"
    do {
      _ = try CookieFile.validate(bad, path: "c.txt")
      Issue.record("a malformed cookies file was accepted")
    } catch {
      #expect(error.description.contains("c.txt, line 2"))
      #expect(!error.description.contains("abc"))
    }
    #expect(throws: RequestOptionError.self) {
      try CookieFile.validate("example.com TRUE / FALSE 0 a b\n", path: "spaces.txt")
    }
  }

  @Test func secretsAreRedactedInEveryDescription() throws {
    var options = RequestOptions(secretHeaderNames: ["X-Api-Key"])
    options.headers.add(name: "Authorization", value: "Bearer t0ken")
    options.headers.add(name: "x-api-key", value: "k3y")
    options.headers.add(name: "Accept-Language", value: "en")
    options.credentials = try Credentials(user: "ana", password: "pa55")
    options.proxy = try Proxy(parsing: "http://u:pr0xy@proxy:3128")
    let text = options.redactedDescription
    for secret in ["t0ken", "k3y", "pa55", "pr0xy"] { #expect(!text.contains(secret), "\(text)") }
    #expect(text.contains("Authorization: <redacted>"))
    #expect(text.contains("Accept-Language: en"))
  }
}
