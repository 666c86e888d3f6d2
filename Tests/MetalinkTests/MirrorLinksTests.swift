import Foundation
import Metalink
import TestTiming
import Testing

/// RFC 6249 `Link` fields: mirrors (`rel=duplicate`) and Metalink descriptions
/// (`rel=describedby`), as a mirror redirector sends them.
@Suite(.timed) struct MirrorLinksTests {
  let responseURL = URL(string: "https://download.example.org/distro/12/disk.iso")!

  /// The header lines a redirector answers a file request with, one `Link` a line.
  static let redirectorFields = [
    "<https://download.example.org/distro/12/disk.iso.meta4>; rel=describedby; type=\"application/metalink4+xml\"",
    "<https://download.example.org/distro/12/disk.iso.torrent>; rel=describedby; type=\"application/x-bittorrent\"",
    "<http://ftp.example.de/pub/distro/12/disk.iso>; rel=duplicate; pri=1; geo=de",
    "<https://mirror.example-uni.de/distro/12/disk.iso>; rel=duplicate; pri=2; geo=de",
    "<https://miroir.example.fr/distro/12/disk.iso>; rel=duplicate; pri=3; geo=fr",
    "<https://mirror.example.com/distro/12/disk.iso>; rel=duplicate; pri=4; geo=us; depth=3",
  ]

  @Test func aRedirectorsLinkFieldsGiveItsMirrorsAndItsMetalink() {
    let links = MirrorLinks(fieldValues: Self.redirectorFields, responseURL: responseURL)
    #expect(
      links.metalinks.map(\.absoluteString) == [
        "https://download.example.org/distro/12/disk.iso.meta4"
      ])
    #expect(links.duplicates.count == 4)
    #expect(links.duplicates.map(\.priority) == [1, 2, 3, 4])
    #expect(links.duplicates.map(\.location) == ["de", "de", "fr", "us"])
    #expect(links.duplicates.map(\.depth) == [nil, nil, nil, 3])
  }

  @Test func severalLinksInOneFieldAreSplitAtCommasOutsideQuotesAndTargets() {
    let field =
      "<https://a.example/x,y.iso>; rel=duplicate; title=\"one, two; three\"; pri=2, "
      + "<https://b.example/x.iso>; rel=\"duplicate\"; pri=1"
    let links = MirrorLinks(fieldValues: [field], responseURL: responseURL)
    #expect(
      links.duplicates.map(\.url.absoluteString) == [
        "https://a.example/x,y.iso", "https://b.example/x.iso",
      ])
    #expect(links.duplicates.map(\.priority) == [2, 1])
  }

  @Test func relativeReferencesResolveAgainstTheResponseURL() {
    let links = MirrorLinks(
      fieldValues: [
        "<disk.iso.meta4>; rel=describedby; type=\"application/metalink4+xml\"",
        "</mirror/distro/12/disk.iso>; rel=duplicate",
        "<//other.example/disk.iso>; rel=duplicate",
      ], responseURL: responseURL)
    #expect(
      links.metalinks.map(\.absoluteString) == [
        "https://download.example.org/distro/12/disk.iso.meta4"
      ])
    #expect(
      links.duplicates.map(\.url.absoluteString) == [
        "https://download.example.org/mirror/distro/12/disk.iso", "https://other.example/disk.iso",
      ])
  }

  @Test func otherRelationsAndTypesAndSchemesAreIgnored() {
    let links = MirrorLinks(
      fieldValues: [
        "<https://example.org/next>; rel=next",
        "<https://example.org/a.torrent>; rel=describedby; type=\"application/x-bittorrent\"",
        "<https://example.org/a.asc>; rel=describedby; type=\"application/pgp-signature\"",
        "<https://example.org/a.meta4>; rel=describedby",
        "<ftp://ftp.example.org/a.iso>; rel=duplicate; pri=1",
        "<https://example.org/no-rel.iso>",
      ], responseURL: responseURL)
    #expect(links == MirrorLinks())
  }

  @Test func relAndTypeAreReadInAnyCaseAndRelMayListSeveralTypes() {
    let links = MirrorLinks(
      fieldValues: [
        "<https://a.example/a.iso>; REL=\"prefetch Duplicate\"",
        "<https://a.example/a.meta4>; Rel=DescribedBy; Type=\"Application/Metalink4+XML\"",
      ], responseURL: responseURL)
    #expect(links.duplicates.count == 1 && links.metalinks.count == 1)
  }

  /// RFC 8288 §3.3: a rel after the first is ignored.
  @Test func onlyTheFirstRelCounts() {
    let links = MirrorLinks(
      fieldValues: ["<https://a.example/a.iso>; rel=next; rel=duplicate"],
      responseURL: responseURL)
    #expect(links.duplicates.isEmpty)
  }

  @Test func preferredMirrorsComeFirstThenPriorityThenLocation() {
    let links = MirrorLinks(
      fieldValues: [
        "<https://one.example/a>; rel=duplicate; pri=1; geo=jp",
        "<https://none.example/a>; rel=duplicate",
        "<https://pref.example/a>; rel=duplicate; pri=5; pref",
        "<https://one-de.example/a>; rel=duplicate; pri=1; geo=de",
      ], responseURL: responseURL)
    #expect(links.duplicates.map(\.isPreferred) == [false, false, true, false])
    #expect(
      links.orderedDuplicates(preferring: "de").map(\.url.host) == [
        "pref.example", "one-de.example", "one.example", "none.example",
      ])
  }

  @Test(arguments: [
    "<https://a.example/a",  // no closing bracket
    "https://a.example/a; rel=duplicate",  // no brackets at all
    "<https://a.example/a>; =duplicate",  // no parameter name
    "<https://a.example/a> rel=duplicate",  // no semicolon
    ";;;,,,<>;",
    "",
  ])
  func aMalformedLinkIsSkippedAndTheNextOneKept(_ broken: String) {
    let links = MirrorLinks(
      fieldValues: [broken + ", <https://good.example/a>; rel=duplicate; pri=1"],
      responseURL: responseURL)
    #expect(links.duplicates.last?.url.host == "good.example")
    #expect(links.duplicates.allSatisfy { $0.url.host != "a.example" })
  }

  @Test func aQuoteThatIsNeverClosedEndsTheFieldWithoutALink() {
    let links = MirrorLinks(
      fieldValues: ["<https://a.example/a>; rel=\"duplicate, <https://b.example/a>; rel=duplicate"],
      responseURL: responseURL)
    #expect(links.duplicates.isEmpty)
  }

  @Test func malformedParametersAreDroppedButTheMirrorKept() {
    let links = MirrorLinks(
      fieldValues: ["<https://a.example/a>; rel=duplicate; pri=0; geo=deu; depth=-1"],
      responseURL: responseURL)
    #expect(links.duplicates == [DuplicateLink(url: URL(string: "https://a.example/a")!)])
  }
}
