import Foundation
import Metalink
import TestTiming
import Testing

/// Metalink 4 documents shaped like what real producers serve: a mirror redirector's
/// `.meta4` with many mirrors, a large file with piece hashes, several files in one document.
@Suite(.timed) struct Metalink4DocumentTests {
  /// The shape MirrorBrain and mirrorbits give a `.meta4`: generator, origin, publication
  /// date, size and several hashes, a torrent metaurl and mirrors ranked by priority with
  /// their country.
  static let redirector = """
    <?xml version="1.0" encoding="UTF-8"?>
    <metalink xmlns="urn:ietf:params:xml:ns:metalink">
      <generator>MirrorBrain/2.19.0</generator>
      <origin dynamic="true">https://download.example.org/distro/disk.iso.meta4</origin>
      <published>2024-05-02T09:15:00Z</published>
      <updated>2024-05-03T10:00:00.250+02:00</updated>
      <file name="disk.iso">
        <size>13</size>
        <!-- created by a mirror redirector; mirrors near the client first -->
        <hash type="md5">\(MetalinkSamples.md5)</hash>
        <hash type="sha-1">\(MetalinkSamples.sha1)</hash>
        <hash type="sha-256">\(MetalinkSamples.sha256)</hash>
        <metaurl mediatype="torrent" priority="1">https://download.example.org/distro/disk.iso.torrent</metaurl>
        <url location="de" priority="1">https://ftp.example.de/pub/distro/disk.iso</url>
        <url location="de" priority="2">http://mirror.example-uni.de/distro/disk.iso</url>
        <url location="fr" priority="3">https://miroir.example.fr/distro/disk.iso</url>
        <url location="us" priority="4">https://mirror.example.com/distro/disk.iso</url>
        <url location="jp" priority="5">ftp://ftp.example.jp/pub/distro/disk.iso</url>
        <url location="se" priority="6">rsync://mirror.example.se/distro/disk.iso</url>
        <url>https://download.example.org/distro/disk.iso</url>
      </file>
    </metalink>
    """

  @Test func aRedirectorsMeta4GivesEveryMirrorWithItsPriorityAndCountry() throws {
    let metalink = try MetalinkParser.parse(Self.redirector)
    #expect(metalink.format == .metalink4)
    #expect(metalink.generator == "MirrorBrain/2.19.0")
    #expect(metalink.origin == "https://download.example.org/distro/disk.iso.meta4")
    #expect(metalink.isDynamic)
    #expect(metalink.published == Date(timeIntervalSince1970: 1_714_641_300))
    #expect(metalink.updated == Date(timeIntervalSince1970: 1_714_723_200.25))
    let file = try #require(metalink.files.first)
    #expect(file.name == "disk.iso" && file.size == 13)
    #expect(file.urls.count == 7)
    #expect(file.urls.map(\.priority) == [1, 2, 3, 4, 5, 6, nil])
    #expect(file.urls.map(\.location) == ["de", "de", "fr", "us", "jp", "se", nil])
    #expect(file.metaURLs.map(\.mediaType) == ["torrent"])
    #expect(file.metaURLs.allSatisfy { !$0.isUsable })
  }

  @Test func ftpAndRsyncMirrorsAreListedAsUnusableWithTheReasonButNeverOffered() throws {
    let file = try #require(try MetalinkParser.parse(Self.redirector).files.first)
    let unusable = file.urls.filter { !$0.isUsable }
    #expect(unusable.map(\.text).map { $0.prefix(5) } == ["ftp:/", "rsync"])
    #expect(unusable.allSatisfy { $0.unusableReason?.contains("only http and https") == true })
    #expect(unusable.allSatisfy { $0.url == nil })
    #expect(!file.usableURLs().contains { !$0.isUsable })
    #expect(file.usableURLs().count == 5)
  }

  @Test func theStrongestHashIsChosenAmongThoseTheCallerCanCheck() throws {
    let file = try #require(try MetalinkParser.parse(Self.redirector).files.first)
    #expect(file.hashes.map(\.algorithm) == [.md5, .sha1, .sha256])
    #expect(file.strongestHash()?.algorithm == .sha256)
    #expect(file.strongestHash()?.hex == MetalinkSamples.sha256)
    #expect(file.strongestHash(checkable: [.md5, .sha1])?.algorithm == .sha1)
    #expect(file.strongestHash(checkable: [.sha512]) == nil)
  }

  /// The shape of a large archive's `.meta4` (Kiwix publishes one per ZIM file through
  /// MirrorBrain): a size that is not a multiple of the piece length and one SHA-1 per
  /// 256 KiB piece in order, beside a whole-file SHA-256. A transfer that checks only SHA-256
  /// finds no pieces it can check.
  @Test func aLargeFilesPieceHashesCoverItsSizeWithAShorterLastPiece() throws {
    let pieceLength = 262_144
    let size = 3 * pieceLength + 1_000
    let hashes = (0..<4).map {
      "      <hash>\(String(MetalinkSamples.pieceHash($0).prefix(40)))</hash>"
    }
    let metalink = try MetalinkParser.parse(
      MetalinkSamples.meta4(
        """
        <file name="wikipedia_en_all_maxi.zim">
          <size>\(size)</size>
          <hash type="sha-256">\(MetalinkSamples.sha256)</hash>
          <pieces length="\(pieceLength)" type="sha-1">
        \(hashes.joined(separator: "\n"))
          </pieces>
          <url priority="1" location="ch">https://mirror.example.ch/zim/wikipedia_en_all_maxi.zim</url>
          <url priority="2" location="us">https://mirror.example.us/zim/wikipedia_en_all_maxi.zim</url>
        </file>
        """))
    let file = try #require(metalink.files.first)
    #expect(file.strongestPieces(checkable: [.sha256]) == nil)
    let pieces = try #require(file.strongestPieces(checkable: [.sha1, .sha256]))
    #expect(pieces.algorithm == .sha1)
    #expect(pieces.count == 4 && pieces.length == UInt64(pieceLength))
    #expect(pieces.byteRange(ofPiece: 0) == 0..<UInt64(pieceLength))
    #expect(pieces.byteRange(ofPiece: 3) == UInt64(3 * pieceLength)..<UInt64(size))
    #expect(pieces.byteRange(ofPiece: 4) == nil)
    #expect(pieces.piece(containing: 0) == 0)
    #expect(pieces.piece(containing: UInt64(pieceLength)) == 1)
    #expect(pieces.piece(containing: UInt64(size - 1)) == 3)
    #expect(pieces.piece(containing: UInt64(size)) == nil)
    #expect(pieces.checksum(ofPiece: 2)?.hex == String(MetalinkSamples.pieceHash(2).prefix(40)))
  }

  @Test func severalFilesKeepTheirOrderAndTheirOwnDescriptions() throws {
    let metalink = try MetalinkParser.parse(
      MetalinkSamples.meta4(
        """
        <file name="release/notes.txt">
          <identity>Example OS</identity>
          <version>12.4</version>
          <description>Release notes</description>
          <language>en</language>
          <os>Linux-x86_64</os>
          <signature mediatype="application/pgp-signature">-----BEGIN PGP SIGNATURE-----
        iQEzBAABCAAdFiEE
        -----END PGP SIGNATURE-----</signature>
          <url>https://example.org/release/notes.txt</url>
        </file>
        <file name="release/image.iso">
          <size>0</size>
          <url>http://example.org/release/image.iso</url>
        </file>
        """))
    #expect(metalink.files.map(\.name) == ["release/notes.txt", "release/image.iso"])
    let notes = try #require(metalink.file(named: "release/notes.txt"))
    #expect(notes.identity == "Example OS" && notes.version == "12.4")
    #expect(notes.description == "Release notes")
    #expect(notes.languages == ["en"] && notes.operatingSystems == ["Linux-x86_64"])
    #expect(notes.signature?.mediaType == "application/pgp-signature")
    #expect(notes.signature?.text.contains("BEGIN PGP SIGNATURE") == true)
    #expect(notes.size == nil)
    #expect(metalink.file(named: "release/image.iso")?.size == 0)
  }

  /// RFC 5854 §5: elements and attributes of other namespaces are extensions a processor
  /// that does not know them ignores, even where their local names match ours.
  @Test func elementsAndAttributesOfOtherNamespacesAreIgnored() throws {
    let metalink = try MetalinkParser.parse(
      """
      <metalink xmlns="urn:ietf:params:xml:ns:metalink" xmlns:x="urn:example:extension">
        <file name="a.bin" x:name="../../evil">
          <x:size>999</x:size>
          <size>13</size>
          <x:url>ftp://ignored.example/a.bin</x:url>
          <url xmlns="urn:example:other">https://evil.example/a.bin</url>
          <url x:priority="1" priority="7">https://example.org/a.bin</url>
          <x:file name="/etc/passwd"><url>https://evil.example/</url></x:file>
        </file>
        <x:file name="/absolute"><url>https://evil.example/</url></x:file>
      </metalink>
      """)
    #expect(metalink.files.count == 1 && metalink.refusedFiles.isEmpty)
    let file = try #require(metalink.files.first)
    #expect(file.name == "a.bin" && file.size == 13)
    #expect(file.urls.map(\.text) == ["https://example.org/a.bin"])
    #expect(file.urls.first?.priority == 7)
  }

  @Test func aPrefixedMetalinkNamespaceReadsLikeTheDefaultOne() throws {
    let metalink = try MetalinkParser.parse(
      """
      <ml:metalink xmlns:ml="urn:ietf:params:xml:ns:metalink">
        <ml:file name="a.bin"><ml:size>5</ml:size><ml:url>https://example.org/a.bin</ml:url></ml:file>
      </ml:metalink>
      """)
    #expect(metalink.files.first?.size == 5)
  }

  @Test func aMalformedPriorityOrLocationIsDroppedButTheURLKept() throws {
    let metalink = try MetalinkParser.parse(
      MetalinkSamples.meta4(
        """
        <file name="a.bin">
          <url priority="0" location="germany">https://a.example/a.bin</url>
          <url priority="1000000" location="D3">https://b.example/a.bin</url>
          <url priority="-1" location="DE">https://c.example/a.bin</url>
        </file>
        """))
    let urls = try #require(metalink.files.first?.urls)
    #expect(urls.map(\.priority) == [nil, nil, nil])
    #expect(urls.map(\.location) == [nil, nil, "de"])
    #expect(urls.allSatisfy { $0.isUsable })
  }
}
