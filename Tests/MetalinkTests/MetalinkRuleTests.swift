import Foundation
import Metalink
import TestTiming
import Testing

/// Every rule a Metalink must pass, each refusing the document or only the file it breaks,
/// with a message that says what to do.
@Suite(.timed) struct MetalinkRuleTests {
  func error(_ text: String) -> MetalinkError? {
    do {
      _ = try MetalinkParser.parse(text)
      return nil
    } catch {
      return error
    }
  }

  @Test(arguments: [
    "", "not xml at all", "<metalink>", "<metalink></Metalink>", "\u{0}<metalink/>",
    "<metalink a='1' a='2'/>",
  ])
  func textThatIsNotXMLIsRefused(_ text: String) {
    #expect(error(text)?.code == .notXML)
  }

  @Test func bytesThatAreNotUTF8AreRefusedAsNotXML() {
    var bytes = Array("<metalink xmlns=\"urn:ietf:params:xml:ns:metalink\"><".utf8)
    bytes += [0xFF, 0xFE] + Array("/></metalink>".utf8)
    #expect(throws: MetalinkError.self) { try MetalinkParser.parse(Data(bytes)) }
  }

  @Test func aRootThatIsNotMetalinkIsRefused() {
    let refused = error("<html><body><a href='https://example.org/a.iso'/></body></html>")
    #expect(refused?.code == .notMetalink)
    #expect(refused?.message.contains("not a Metalink") == true)
  }

  @Test func aMetalinkRootInAnotherNamespaceIsRefused() {
    let refused = error("<metalink xmlns='urn:example:not-metalink'><file name='a'/></metalink>")
    #expect(refused?.code == .notMetalink)
    #expect(refused?.message.contains("urn:ietf:params:xml:ns:metalink") == true)
  }

  @Test func aMetalinkWithoutFilesIsRefused() {
    #expect(error(MetalinkSamples.meta4("<generator>x</generator>"))?.code == .noFiles)
  }

  /// RFC 5854 §4.1.2.1: a name with `..` or an absolute path MUST be rejected. Our rule is
  /// wider: a relative path of plain segments that cannot leave the output folder.
  @Test(arguments: [
    "", "/etc/passwd", "../escape.bin", "dir/../../escape.bin", "dir/..", "..",
    "a\u{0}b.bin", "dir\\..\\escape.bin", "C:/Windows/evil.dll", "c:evil", "./a.bin",
    "dir//a.bin", "dir/", "a\nb.bin", "a\u{7F}b", String(repeating: "a", count: 256),
    String(repeating: "a/", count: 2100) + "a",
  ])
  func anUnsafeFileNameRefusesTheFile(_ name: String) {
    let escaped = name.replacingOccurrences(of: "\u{0}", with: "&#0;")
      .replacingOccurrences(of: "\n", with: "&#10;")
    let refused = error(MetalinkSamples.oneFile(name: escaped))
    if name.contains("\u{0}") {
      // XML cannot carry a NUL at all, not even as a reference: refused as not XML.
      #expect(refused?.code == .notXML)
    } else {
      #expect(refused?.code == .unsafeFileName)
      #expect(refused?.path == "metalink/file[1]")
      #expect(refused?.message.contains("RFC 5854") == true)
    }
  }

  @Test(arguments: [
    "a.bin", "dir/sub/a.bin", "..a", "a..b", "...", ".hidden", "名前.iso", "a b.iso",
  ])
  func aRelativeNameOfPlainSegmentsIsKept(_ name: String) throws {
    let metalink = try MetalinkParser.parse(MetalinkSamples.oneFile(name: name))
    #expect(metalink.files.map(\.name) == [name])
  }

  @Test func aFileWithoutANameIsRefused() {
    let refused = error(
      MetalinkSamples.meta4("<file><url>https://example.org/a</url></file>"))
    #expect(refused?.code == .unsafeFileName)
  }

  @Test func anUnsafeNameRefusesOnlyItsFileAndTheOthersAreKept() throws {
    let metalink = try MetalinkParser.parse(
      MetalinkSamples.meta4(
        """
        <file name="good.bin"><url>https://example.org/good.bin</url></file>
        <file name="../../.bashrc"><url>https://example.org/x</url></file>
        """))
    #expect(metalink.files.map(\.name) == ["good.bin"])
    #expect(metalink.refusedFiles.map(\.code) == [.unsafeFileName])
    #expect(metalink.refusedFiles.first?.path == "metalink/file[2]")
    #expect(metalink.refusedFiles.first?.message.contains("'../../.bashrc'") == true)
  }

  @Test func aNameInAMessageHasItsControlCharactersEscapedAndIsCut() throws {
    let refused = try #require(
      error(MetalinkSamples.oneFile(name: "/a&#9;b" + String(repeating: "x", count: 300))))
    #expect(refused.message.contains("\\t"))
    #expect(!refused.message.contains("\t"))
    #expect(refused.message.count < 300)
  }

  @Test func aRepeatedNameRefusesTheLaterFile() throws {
    let metalink = try MetalinkParser.parse(
      MetalinkSamples.meta4(
        """
        <file name="a.bin"><size>1</size><url>https://one.example/a.bin</url></file>
        <file name="a.bin"><size>2</size><url>https://two.example/a.bin</url></file>
        """))
    #expect(metalink.files.map(\.size) == [1])
    #expect(metalink.refusedFiles.map(\.code) == [.duplicateFileName])
  }

  @Test func aFileWithOnlyUnusableURLsIsRefusedNamingTheSchemesNotTheURLs() throws {
    let refused = try #require(
      error(
        MetalinkSamples.meta4(
          """
          <file name="a.bin">
            <url>ftp://user:s3cret@ftp.example.org/a.bin</url>
            <url>file:///etc/passwd</url>
            <metaurl mediatype="torrent">https://example.org/a.torrent</metaurl>
          </file>
          """)))
    #expect(refused.code == .noUsableURL)
    #expect(refused.message.contains("'ftp'") && refused.message.contains("'file'"))
    #expect(refused.message.contains("1 metaurl"))
    #expect(!refused.message.contains("s3cret"))
  }

  @Test(arguments: ["relative/a.bin", "https:///no-host", "javascript:alert(1)", "mailto:a@b"])
  func aURLThatIsNotAbsoluteHTTPIsUnusable(_ text: String) throws {
    let metalink = try MetalinkParser.parse(
      MetalinkSamples.oneFile(
        "<url>\(text.replacingOccurrences(of: "&", with: "&amp;"))</url>"))
    let url = try #require(metalink.files.first?.urls.first)
    #expect(!url.isUsable && url.unusableReason != nil)
  }

  @Test(arguments: ["-1", "12.5", "1e9", "ten", "", "18446744073709551616", "0x10"])
  func aSizeThatIsNotAWholeNumberRefusesTheFile(_ size: String) {
    let refused = error(MetalinkSamples.oneFile("<size>\(size)</size>"))
    #expect(refused?.code == .invalidSize)
  }

  @Test func theLargestSizeIsTaken() throws {
    let metalink = try MetalinkParser.parse(
      MetalinkSamples.oneFile("<size> 18446744073709551615 </size>"))
    #expect(metalink.files.first?.size == UInt64.max)
  }

  @Test(arguments: [
    ("sha-256", String(MetalinkSamples.sha256.dropLast())),  // one digit short
    ("sha-256", MetalinkSamples.sha256 + "00"),  // a byte too many
    ("sha-256", MetalinkSamples.sha1),  // another function's length
    ("sha-256", String(MetalinkSamples.sha256.dropLast()) + "g"),  // not hexadecimal
    ("sha-512", MetalinkSamples.sha256),
    ("md5", ""),
  ])
  func aHashThatIsNotHexOfItsLengthRefusesTheFile(_ type: String, _ digits: String) {
    let refused = error(MetalinkSamples.oneFile("<hash type=\"\(type)\">\(digits)</hash>"))
    #expect(refused?.code == .invalidHash)
  }

  @Test func upperCaseHexIsAHash() throws {
    let metalink = try MetalinkParser.parse(
      MetalinkSamples.oneFile(
        "<hash type=\"SHA-256\">\(MetalinkSamples.sha256.uppercased())</hash>"))
    #expect(metalink.files.first?.strongestHash()?.hex == MetalinkSamples.sha256)
  }

  @Test func twoDifferentHashesOfOneFunctionRefuseTheFile() {
    let refused = error(
      MetalinkSamples.oneFile(
        """
        <hash type="sha-256">\(MetalinkSamples.sha256)</hash>
        <hash type="sha-256">\(MetalinkSamples.pieceHash(1))</hash>
        """))
    #expect(refused?.code == .invalidHash)
  }

  @Test func aHashOfAnUnknownFunctionIsIgnored() throws {
    let metalink = try MetalinkParser.parse(
      MetalinkSamples.oneFile("<hash type=\"tiger\">not checked</hash><hash>no type</hash>"))
    #expect(metalink.files.first?.hashes == [])
  }

  @Test(arguments: [(13, 8, 1), (13, 8, 3), (16, 8, 1), (0, 8, 1)])
  func pieceHashesThatDoNotNumberCeilOfSizeOverLengthRefuseTheFile(
    _ size: Int, _ length: Int, _ count: Int
  ) {
    let hashes = (0..<count).map { "<hash>\(MetalinkSamples.pieceHash($0))</hash>" }
    let refused = error(
      MetalinkSamples.oneFile(
        """
        <size>\(size)</size>
        <pieces length="\(length)" type="sha-256">\(hashes.joined())</pieces>
        """))
    #expect(refused?.code == .invalidPieces)
    #expect(refused?.message.contains("make") == true)
  }

  @Test(arguments: ["0", "-8", "eight", ""])
  func aPieceLengthThatIsNotAPositiveWholeNumberRefusesTheFile(_ length: String) {
    let refused = error(
      MetalinkSamples.oneFile(
        "<pieces length=\"\(length)\" type=\"sha-256\"><hash>\(MetalinkSamples.pieceHash(0))</hash></pieces>"
      ))
    #expect(refused?.code == .invalidPieces)
  }

  @Test func aMalformedPieceHashRefusesTheFile() {
    let refused = error(
      MetalinkSamples.oneFile(
        """
        <size>13</size>
        <pieces length="8" type="sha-256"><hash>\(MetalinkSamples.pieceHash(0))</hash><hash>00</hash></pieces>
        """))
    #expect(refused?.code == .invalidHash)
    #expect(refused?.message.contains("piece 1") == true)
  }

  @Test func piecesWithoutASizeAreKeptAndEveryPieceIsTakenToBeFull() throws {
    let metalink = try MetalinkParser.parse(
      MetalinkSamples.oneFile(
        """
        <pieces length="8" type="sha-256"><hash>\(MetalinkSamples.pieceHash(0))</hash><hash>\(MetalinkSamples.pieceHash(1))</hash></pieces>
        """))
    let pieces = try #require(metalink.files.first?.pieces.first)
    #expect(pieces.fileSize == nil)
    #expect(pieces.byteRange(ofPiece: 1) == 8..<16)
    #expect(pieces.piece(containing: 15) == 1 && pieces.piece(containing: 16) == nil)
  }

  @Test func whenEveryFileIsRefusedTheFirstFilesErrorRefusesTheDocument() {
    let refused = error(
      MetalinkSamples.meta4(
        """
        <file name="a.bin"><size>x</size><url>https://example.org/a</url></file>
        <file name="/b.bin"><url>https://example.org/b</url></file>
        """))
    #expect(refused?.code == .invalidSize)
    #expect(refused?.path == "metalink/file[1]")
  }

  /// Pins the guard XMLTree shares with DASHManifest: a deep tree is refused, not recursed
  /// into until the stack overflows.
  @Test func elementsNestedTooDeepAreRefused() {
    let deep = String(repeating: "<x>", count: 10_000) + String(repeating: "</x>", count: 10_000)
    let refused = error("<metalink xmlns='urn:ietf:params:xml:ns:metalink'>\(deep)</metalink>")
    #expect(refused?.code == .notXML)
    #expect(refused?.message.contains("nested deeper") == true)
  }
}

/// Entities that would reach outside the document or grow without bound.
@Suite(.timed) struct MetalinkEntityTests {
  /// An external entity is never resolved: its text (a local file's) never becomes a name or
  /// a URL.
  @Test func anExternalEntityIsNotResolved() {
    let text = """
      <?xml version="1.0"?>
      <!DOCTYPE metalink [<!ENTITY secret SYSTEM "file:///etc/hostname">]>
      <metalink xmlns="urn:ietf:params:xml:ns:metalink">
        <file name="a.bin"><description>&secret;</description><url>https://example.org/&secret;</url></file>
      </metalink>
      """
    let hostname = (try? String(contentsOfFile: "/etc/hostname", encoding: .utf8))?
      .trimmingCharacters(in: .whitespacesAndNewlines)
    do {
      let metalink = try MetalinkParser.parse(text)
      let file = metalink.files.first
      #expect(file?.description == nil || file?.description?.contains(hostname ?? "\u{0}") == false)
      #expect(file?.urls.allSatisfy { !$0.text.contains(hostname ?? "\u{0}") } ?? true)
    } catch {
      #expect(error.code == .notXML || error.code == .noUsableURL)
    }
  }

  @Test func nestedEntitiesThatExpandWithoutBoundAreRefused() {
    var declarations = "<!ENTITY a0 \"xxxxxxxxxx\">"
    for level in 1...9 {
      let previous = String(repeating: "&a\(level - 1);", count: 10)
      declarations += "<!ENTITY a\(level) \"\(previous)\">"
    }
    let text = """
      <?xml version="1.0"?>
      <!DOCTYPE metalink [\(declarations)]>
      <metalink xmlns="urn:ietf:params:xml:ns:metalink">
        <file name="a.bin"><description>&a9;</description><url>https://example.org/a</url></file>
      </metalink>
      """
    #expect(throws: MetalinkError.self) { try MetalinkParser.parse(text) }
  }
}
