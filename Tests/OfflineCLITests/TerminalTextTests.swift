import Foundation
import TestTiming
import Testing

@testable import OfflineCLI

/// `TerminalText`: server text made safe to print (issue 11, item 12).
@Suite(.ownThreads, .timed) struct TerminalTextTests {
  @Test func controlCharactersAreShownAsEscapes() {
    #expect(TerminalText.escaped("a\u{1B}[31mb") == "a\\u{1B}[31mb")
    #expect(
      TerminalText.escaped("cr\rlf\ntab\tnul\u{0}") == "cr\\u{0D}lf\\u{0A}tab\\u{09}nul\\u{00}")
    #expect(TerminalText.escaped("del\u{7F} csi\u{9B}") == "del\\u{7F} csi\\u{9B}")
    #expect(TerminalText.escaped("bidi\u{202E}txt") == "bidi\\u{202E}txt")
  }

  @Test func ordinaryTextIsUnchanged() {
    for text in ["English", "Français", "日本語", "fr-CA", "avc1.64001f,mp4a.40.2", ""] {
      #expect(TerminalText.escaped(text) == text)
    }
  }

  @Test func longURLsAreCutAndSayHowLongTheyWere() throws {
    let url = try #require(
      URL(string: "http://example.com/" + String(repeating: "x", count: 5000) + "/end.ts"))
    let short = TerminalText.shortened(url: url)
    #expect(short.count <= TerminalText.maximumURLLength + 40, "\(short.count)")
    #expect(short.hasPrefix("http://example.com/xxx"))
    #expect(short.hasSuffix("/end.ts (\(url.absoluteString.count) characters)"), "\(short)")
    let plain = try #require(URL(string: "https://example.com/a.m3u8"))
    #expect(TerminalText.shortened(url: plain) == "https://example.com/a.m3u8")
  }

  @Test func messagesCutEveryLongWordAndEscape() {
    let message = "Failed: http://h/" + String(repeating: "y", count: 3000) + " and\u{1B}x."
    let shown = TerminalText.message(message)
    #expect(shown.count < 400)
    #expect(shown.hasPrefix("Failed: http://h/yyy"))
    #expect(shown.hasSuffix(" and\\u{1B}x."))
  }
}
