import Foundation
import Metalink
import TestTiming
import Testing

/// Metalink 3.0 (`.metalink`), which mirror redirectors still serve beside `.meta4`, read
/// into the same model as Metalink 4.
@Suite(.timed) struct Metalink3DocumentTests {
  static let document = """
    <?xml version="1.0" encoding="utf-8"?>
    <metalink version="3.0" xmlns="http://www.metalinker.org/" type="dynamic"
        origin="http://download.example.org/distro/disk.iso.metalink"
        generator="mirrorbits" pubdate="Thu, 02 May 2024 09:15:00 +0000"
        xmlns:mm0="http://example.org/mirrormanager">
      <publisher><name>Example Project</name><url>https://example.org/</url></publisher>
      <files>
        <file name="disk.iso">
          <mm0:timestamp>1714641300</mm0:timestamp>
          <identity>Example OS</identity>
          <version>12.4</version>
          <size>13</size>
          <verification>
            <hash type="md5">\(MetalinkSamples.md5)</hash>
            <hash type="sha1">\(MetalinkSamples.sha1)</hash>
            <hash type="sha256">\(MetalinkSamples.sha256)</hash>
            <pieces length="8" type="sha1">
              <hash piece="1">\(String(repeating: "b", count: 40))</hash>
              <hash piece="0">\(String(repeating: "a", count: 40))</hash>
            </pieces>
            <signature type="pgp">-----BEGIN PGP SIGNATURE-----</signature>
          </verification>
          <resources maxconnections="4">
            <url type="http" location="de" preference="100">http://ftp.example.de/distro/disk.iso</url>
            <url type="https" location="fr" preference="90">https://miroir.example.fr/distro/disk.iso</url>
            <url type="ftp" location="us" preference="80">ftp://ftp.example.com/distro/disk.iso</url>
            <url type="bittorrent" preference="100">http://download.example.org/distro/disk.iso.torrent</url>
            <url type="http">https://download.example.org/distro/disk.iso</url>
          </resources>
        </file>
      </files>
    </metalink>
    """

  @Test func aMetalink3FileMapsIntoTheSameModel() throws {
    let metalink = try MetalinkParser.parse(Self.document)
    #expect(metalink.format == .metalink3)
    #expect(metalink.generator == "mirrorbits" && metalink.isDynamic)
    #expect(metalink.origin == "http://download.example.org/distro/disk.iso.metalink")
    #expect(metalink.published == Date(timeIntervalSince1970: 1_714_641_300))
    let file = try #require(metalink.files.first)
    #expect(file.name == "disk.iso" && file.size == 13)
    #expect(file.identity == "Example OS" && file.version == "12.4")
    #expect(file.hashes.map(\.algorithm) == [.md5, .sha1, .sha256])
    #expect(file.strongestHash()?.hex == MetalinkSamples.sha256)
    #expect(
      file.signature == MetalinkSignature(mediaType: "pgp", text: "-----BEGIN PGP SIGNATURE-----"))
  }

  @Test func preferenceBecomesPriorityWithOneHundredTheBest() throws {
    let file = try #require(try MetalinkParser.parse(Self.document).files.first)
    #expect(file.urls.map(\.priority) == [1, 11, 21, nil])
    #expect(file.urls.map(\.location) == ["de", "fr", "us", nil])
    #expect(
      file.usableURLs().map(\.text) == [
        "http://ftp.example.de/distro/disk.iso", "https://miroir.example.fr/distro/disk.iso",
        "https://download.example.org/distro/disk.iso",
      ])
  }

  @Test func aBittorrentResourceIsAMetaURLNotAMirror() throws {
    let file = try #require(try MetalinkParser.parse(Self.document).files.first)
    #expect(file.metaURLs.map(\.mediaType) == ["torrent"])
    #expect(file.metaURLs.first?.text.hasSuffix(".torrent") == true)
    #expect(!file.urls.contains { $0.text.hasSuffix(".torrent") })
  }

  @Test func pieceHashesAreOrderedByTheirPieceNumber() throws {
    let file = try #require(try MetalinkParser.parse(Self.document).files.first)
    let pieces = try #require(file.pieces.first)
    #expect(pieces.algorithm == .sha1 && pieces.length == 8)
    #expect(pieces.checksum(ofPiece: 0)?.hex == String(repeating: "a", count: 40))
    #expect(pieces.checksum(ofPiece: 1)?.hex == String(repeating: "b", count: 40))
    #expect(pieces.byteRange(ofPiece: 1) == 8..<13)
  }

  @Test(arguments: [
    ["0", "0"],  // a number twice
    ["0", "2"],  // a gap
    ["0", "x"],  // not a number
    ["1", "2"],  // not from 0
  ])
  func pieceNumbersThatAreNotEachIndexOnceRefuseTheFile(_ numbers: [String]) throws {
    let hashes = numbers.map {
      "<hash piece=\"\($0)\">\(String(repeating: "a", count: 40))</hash>"
    }
    let text = """
      <metalink version="3.0" xmlns="http://www.metalinker.org/"><files>
      <file name="a.bin"><size>13</size><verification>
      <pieces length="8" type="sha1">\(hashes.joined())</pieces></verification>
      <resources><url type="http">http://example.org/a.bin</url></resources></file>
      </files></metalink>
      """
    #expect(throws: MetalinkError.self) { try MetalinkParser.parse(text) }
    do {
      _ = try MetalinkParser.parse(text)
    } catch {
      #expect(error.code == .invalidPieces)
      #expect(error.path == "metalink/files/file[1]")
    }
  }

  @Test func aMetalink3WithoutNamespaceIsReadByItsVersion() throws {
    let metalink = try MetalinkParser.parse(
      """
      <metalink version="3.0"><files><file name="a.bin">
      <resources><url type="http">http://example.org/a.bin</url></resources>
      </file></files></metalink>
      """)
    #expect(metalink.format == .metalink3)
    #expect(metalink.files.map(\.name) == ["a.bin"])
  }
}
