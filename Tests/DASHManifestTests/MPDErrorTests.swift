import DASHManifest
import Foundation
import TestTiming
import Testing

/// Bad manifests are refused with an `MPDError` that names what is wrong and where.
@Suite(.timed) struct MPDErrorTests {
  func error(_ text: String) -> MPDError? {
    do {
      _ = try MPDParser.parse(text)
      return nil
    } catch let error as MPDError {
      return error
    } catch {
      Issue.record("Not an MPDError: \(error)")
      return nil
    }
  }

  /// A manifest whose first AdaptationSet holds `inner`.
  func inSet(_ inner: String) -> String {
    """
    <MPD xmlns="urn:mpeg:dash:schema:mpd:2011" mediaPresentationDuration="PT6S"><Period>
    <AdaptationSet/><AdaptationSet>\(inner)</AdaptationSet></Period></MPD>
    """
  }

  @Test func describesItselfWithThePath() {
    let error = MPDError(.missingAttribute, at: "MPD/Period[1]", "id is missing.")
    #expect(error.description == "MPD/Period[1]: id is missing.")
  }

  @Test(arguments: [
    "", "not xml at all", "<MPD>", "<MPD></mpd>", "\u{0}<MPD/>", "<MPD a='1' a='2'/>",
  ])
  func refusesTextThatIsNotXML(_ text: String) {
    #expect(error(text)?.kind == .notXML)
  }

  @Test func refusesARootThatIsNotMPD() {
    let error = error("<?xml version=\"1.0\"?><html><body/></html>")
    #expect(error?.kind == .notMPD)
    #expect(error?.message.contains("MPD") == true)
  }

  /// Pins the trap the fuzzer found: a byte that is not UTF-8 in an element name made
  /// Foundation's XMLParser force-unwrap nil and kill the process.
  @Test func anElementNameThatIsNotUTF8IsRefusedWithoutTrapping() {
    var bytes = Array("<?xml version=\"1.0\" encoding=\"utf-8\"?><MPD><Period><".utf8)
    bytes += [0xFF, 0xFF] + Array("Representation/></Period></MPD>".utf8)
    #expect(throws: MPDError.self) { try MPDParser.parse(Data(bytes)) }
    let latin1 = Data("<?xml version='1.0' encoding='ISO-8859-1'?><MPD/>".utf8)
    #expect(throws: MPDError.self) { try MPDParser.parse(latin1) }
  }

  /// Pins the second crash the fuzzer found: a processing instruction without data gave
  /// Foundation's XMLParser a NULL pointer that it passed to `strlen`.
  @Test func aProcessingInstructionWithoutDataIsRefusedWithoutCrashing() {
    #expect(error("<?xml?>\n<MPD/>")?.kind == .notXML)
    #expect(error("<?xml version=\"1.0\"?><MPD><?x?></MPD>")?.kind == .notXML)
    #expect(error("<?xml version=\"1.0\"?><?stylesheet href=\"a\"?><MPD/>") == nil)
  }

  /// Pins the stack overflow a deep tree caused: libxml2, as FoundationXML drives it, reads
  /// 100,000 nested elements, and freeing that tree recursed past the end of the stack.
  @Test func aDocumentNestedTooDeepIsRefusedWithoutOverflowingTheStack() {
    let depth = 100_000
    let text =
      "<MPD>" + String(repeating: "<a>", count: depth) + String(repeating: "</a>", count: depth)
      + "</MPD>"
    let error = error(text)
    #expect(error?.kind == .unsupported)
    #expect(error?.message.contains("nested") == true)
    let fine =
      "<MPD>" + String(repeating: "<a>", count: 200) + String(repeating: "</a>", count: 200)
      + "</MPD>"
    #expect(self.error(fine) == nil)
  }

  @Test func namesTheRepresentationWithoutAnID() {
    #expect(error(inSet("<Representation bandwidth=\"1\"/>"))?.message.contains("id") == true)
  }

  @Test(arguments: [
    "6S", "PT", "P", "PT6", "PT-6S", "PTS", "PT1.2.3S", "P1.5DT1S", "PT1S2M", "PT1H1H", "T1S",
    "PT1e3S", "PT 6S",
  ])
  func refusesAMalformedDuration(_ value: String) {
    let error = error("<MPD mediaPresentationDuration=\"\(value)\"/>")
    #expect(error?.kind == .malformedValue)
    #expect(error?.path == "MPD")
    #expect(error?.message.contains("mediaPresentationDuration") == true)
  }

  @Test(arguments: ["-1", "1.5", "abc", "0x10", "99999999999999999999"])
  func refusesAMalformedNumber(_ value: String) {
    let error = error(inSet("<Representation id=\"a\" bandwidth=\"\(value)\"/>"))
    #expect(error?.kind == .malformedValue)
    #expect(error?.path == "MPD/Period[1]/AdaptationSet[2]/Representation[1]")
  }

  @Test(arguments: ["10-5", "5-", "-5", "a-b", "1-2-3", ""])
  func refusesAMalformedByteRange(_ value: String) {
    let error = error(
      inSet("<SegmentBase indexRange=\"\(value)\"/><Representation id=\"a\" bandwidth=\"1\"/>"))
    #expect(error?.kind == .malformedValue)
    #expect(error?.path == "MPD/Period[1]/AdaptationSet[2]/SegmentBase[1]")
  }

  @Test func refusesNumberAndTimeInOneMediaTemplate() {
    let error = error(inSet("<SegmentTemplate media=\"$Number$-$Time$.m4s\"/>"))
    #expect(error?.kind == .invalidTemplate)
    #expect(error?.path == "MPD/Period[1]/AdaptationSet[2]/SegmentTemplate[1]")
  }

  @Test(arguments: [
    "$Nmber$.m4s", "$Number", "$RepresentationID%05d$", "$Number%05s$",
    "$Number%0-5d$", "$Number%099d$",
  ])
  func refusesABadTemplate(_ media: String) {
    let error = error(inSet("<SegmentTemplate media=\"\(media)\"/>"))
    #expect(error?.kind == .invalidTemplate)
    #expect(error?.message.contains("media") == true)
  }

  @Test func refusesANumberInTheInitializationTemplate() {
    let error = error(inSet("<SegmentTemplate initialization=\"init-$Number$.mp4\"/>"))
    #expect(error?.kind == .invalidTemplate)
    #expect(error?.message.contains("initialization") == true)
  }

  @Test func refusesATimelineEntryWithoutADuration() {
    let error = error(
      inSet(
        "<SegmentTemplate><SegmentTimeline><S t=\"0\" d=\"1\"/><S t=\"5\"/></SegmentTimeline></SegmentTemplate>"
      ))
    #expect(error?.kind == .missingAttribute)
    #expect(
      error?.path == "MPD/Period[1]/AdaptationSet[2]/SegmentTemplate[1]/SegmentTimeline[1]/S[2]")
  }

  @Test(arguments: ["<S d=\"0\" r=\"-1\"/>", "<S d=\"1\" r=\"-2\"/>", "<S d=\"1\" r=\"x\"/>"])
  func refusesATimelineEntryThatCannotBeListed(_ entry: String) {
    let error = error(
      inSet("<SegmentTemplate><SegmentTimeline>\(entry)</SegmentTimeline></SegmentTemplate>"))
    #expect(error?.kind == .malformedValue)
  }

  @Test func refusesAZeroTimescaleAndTwoTemplatesInOneElement() {
    #expect(error(inSet("<SegmentTemplate timescale=\"0\"/>"))?.kind == .malformedValue)
    #expect(error(inSet("<SegmentTemplate/><SegmentTemplate/>"))?.kind == .malformedValue)
  }

  @Test func refusesAnUnknownPresentationType() {
    #expect(error("<MPD type=\"live\"/>")?.message.contains("type") == true)
  }
}
