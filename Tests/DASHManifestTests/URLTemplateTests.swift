import DASHManifest
import TestTiming
import Testing

/// `SegmentTemplate` identifiers and their formats (ISO/IEC 23009-1 §5.3.9.4.4).
@Suite(.timed) struct URLTemplateTests {
  let values = URLTemplate.Values(
    representationID: "v1", bandwidth: 800_000, number: 7, time: 90_000)

  @Test(arguments: [
    ("seg-$Number$.m4s", "seg-7.m4s"),
    ("seg-$Number%05d$.m4s", "seg-00007.m4s"),
    ("$RepresentationID$/$Bandwidth$/$Time$.m4s", "v1/800000/90000.m4s"),
    ("$Time%012d$", "000000090000"),
    ("$Number%x$-$Bandwidth%08X$", "7-000C3500"),
    ("cost$$5-$Number%1d$", "cost$5-7"),
    ("$$$$", "$$"),
    ("plain.m4s", "plain.m4s"),
    ("$Number%03d$", "007"),
  ])
  func expands(_ template: String, _ expected: String) throws {
    #expect(try URLTemplate(template).expand(values) == expected)
  }

  @Test func aWidthNarrowerThanTheNumberKeepsEveryDigit() throws {
    let big = URLTemplate.Values(representationID: "r", number: 1_234_567)
    #expect(try URLTemplate("$Number%03d$").expand(big) == "1234567")
  }

  @Test func listsTheIdentifiersItUses() throws {
    #expect(
      try URLTemplate("$RepresentationID$-$Number$").identifiers == [.representationID, .number])
    #expect(try URLTemplate("$$Number$$").identifiers == [])
  }
}
