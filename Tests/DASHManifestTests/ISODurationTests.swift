import DASHManifest
import TestTiming
import Testing

/// `xs:duration` values (ISO 8601) as MPD attributes.
@Suite(.timed) struct ISODurationTests {
  func seconds(_ text: String) throws -> Double? {
    try MPDParser.parse("<MPD mediaPresentationDuration=\"\(text)\"/>").mediaPresentationDuration
  }

  @Test(arguments: [
    ("PT6S", 6.0), ("PT6.0S", 6), ("PT1H2M3.5S", 3723.5), ("PT0H3M1.63S", 181.63),
    ("P1DT12H", 129_600), ("PT.5S", 0.5), ("PT5.S", 5), ("P1Y", 31_536_000), ("P2M", 5_184_000),
    ("PT0S", 0), ("PT0H12M14.000S", 734), ("P0Y0M0DT0H0M10S", 10),
  ])
  func reads(_ text: String, _ expected: Double) throws {
    #expect(try seconds(text) == expected)
  }

  @Test func writesWhatItReadsInPlainDigits() throws {
    for value in [0.0, 6, 3723.5, 181.63, 1e-7, 1e22, 123_456_789.123] {
      let text = MPDWriter.write(MPD(mediaPresentationDuration: value))
      #expect(!text.contains("e-") && !text.contains("e+"))
      #expect(try MPDParser.parse(text).mediaPresentationDuration == value)
    }
  }
}
