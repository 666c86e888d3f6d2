import Foundation
import OfflineHTTP
import TestSupport
import TestTiming
import Testing

@testable import OfflineKit

/// Issue 17, item 4: what cannot be made available offline is refused with a typed error
/// that says why, before anything but the manifest is fetched, and nothing is written.
@Suite(.serialized, .timed)
struct DASHRefusalTests {
  static func manifest(type: String = "static", protection: String = "", set: String = "")
    -> String
  {
    """
    <?xml version="1.0"?>
    <MPD xmlns="urn:mpeg:dash:schema:mpd:2011" xmlns:cenc="urn:mpeg:cenc:2013" type="\(type)"
      mediaPresentationDuration="PT4S" availabilityStartTime="2026-01-01T00:00:00Z">
      <Period>
        <AdaptationSet contentType="video" mimeType="video/mp4"\(set)>
          \(protection)
          <SegmentTemplate media="v$Number$.m4s" initialization="init.mp4" duration="2"/>
          <Representation id="v" bandwidth="100000"/>
        </AdaptationSet>
      </Period>
    </MPD>
    """
  }

  /// The message of the error a download of `manifest` fails with; only the manifest was
  /// requested and no offline MPD was written.
  func refusal(_ manifest: String) async throws -> String {
    let origin = try DASHOrigin(manifest: manifest)
    let store = try DASHStore()
    let download = store.download(origin.url)
    do {
      _ = try await download.run()
      Issue.record("the download was not refused")
      return ""
    } catch {
      guard case .invalidMedia(let message) = error.kind else {
        Issue.record("not invalidMedia: \(error)")
        return ""
      }
      let log = try await origin.nginx.accessLog(minimumCount: 1)
      #expect(log.map(\.uri) == ["/manifest.mpd"], "only the manifest was fetched")
      #expect(!download.isComplete)
      #expect(error.description.contains(message))
      return message
    }
  }

  /// A live presentation is recorded (`LiveDASHRecordingTests`), but not one without the
  /// `availabilityStartTime` its segments' availability is counted from.
  @Test func aLivePresentationWithoutAnAvailabilityStartIsRefused() async throws {
    let manifest = Self.manifest(type: "dynamic").replacingOccurrences(
      of: #" availabilityStartTime="2026-01-01T00:00:00Z""#, with: "")
    let message = try await refusal(manifest)
    #expect(message.contains("live") && message.contains("type=\"dynamic\""), "\(message)")
    #expect(message.contains("availabilityStartTime"), "\(message)")
  }

  @Test(arguments: [
    ("edef8ba9-79d6-4ace-a3c8-27dcd51d21ed", "Widevine"),
    ("9a04f079-9840-4286-ab92-e65be0885f95", "PlayReady"),
    ("12345678-0000-4000-8000-00000000abcd", "urn:uuid:12345678-0000-4000-8000-00000000abcd"),
  ])
  func contentUnderAKeySystemIsRefusedNamingIt(uuid: String, name: String) async throws {
    let protection = """
      <ContentProtection schemeIdUri="urn:mpeg:dash:mp4protection:2011" value="cenc"
        cenc:default_KID="10000000-1000-1000-1000-100000000001"/>
      <ContentProtection schemeIdUri="urn:uuid:\(uuid)"><cenc:pssh>AAAA</cenc:pssh></ContentProtection>
      """
    let message = try await refusal(Self.manifest(protection: protection))
    #expect(message.contains(name), "\(message)")
    #expect(message.contains("MPD/Period[1]/AdaptationSet[1]"), "\(message)")
    #expect(message.contains("cannot be stored"), "\(message)")
  }

  /// A manifest whose BaseURL points at the local disk: nothing is read from it, nothing but
  /// the manifest is fetched.
  @Test(arguments: ["file:///etc/", "ftp://origin.example/"])
  func aBaseURLThatIsNotHTTPIsRefused(base: String) async throws {
    let manifest = Self.manifest().replacingOccurrences(
      of: "<Period>", with: "<BaseURL>\(base)</BaseURL><Period>")
    let message = try await refusal(manifest)
    #expect(message.contains("is not an http or https URL"), "\(message)")
    #expect(message.contains(base), "\(message)")
  }

  @Test func aDocumentThatIsNotAnMPDIsRefused() async throws {
    let html = try await refusal("<html><body>Not found</body></html>")
    #expect(html.contains("is not a DASH manifest") && html.contains("html"), "\(html)")
    let text = try await refusal("#EXTM3U\n#EXT-X-ENDLIST\n")
    #expect(text.contains("is not a DASH manifest"), "\(text)")
  }

  @Test func aMalformedManifestIsRefusedNamingTheElement() async throws {
    // A missing @bandwidth is accepted since issue 36; a missing @id is not.
    let missing = Self.manifest().replacingOccurrences(
      of: "<Representation id=\"v\"", with: "<Representation")
    let message = try await refusal(missing)
    #expect(
      message.contains("MPD/Period[1]/AdaptationSet[1]/Representation[1]")
        && message.contains("id is missing"), "\(message)")
    let unclosed = try await refusal("<MPD><Period><AdaptationSet></Period></MPD>")
    #expect(unclosed.contains("is not a DASH manifest"), "\(unclosed)")
  }

  /// Pins issue 36, item 9 in the library: three Periods of 199,999 segments each (a 1 KB
  /// manifest) pass the bound of one Representation each but not that of a download; refused
  /// before anything is listed, naming the bound.
  @Test func aManifestThatExpandsTooFarIsRefusedNamingTheBound() async throws {
    let period =
      "<Period duration=\"PT199999S\"><AdaptationSet contentType=\"video\">"
      + "<SegmentTemplate duration=\"1\" media=\"s$Number$.m4s\"/>"
      + "<Representation id=\"v\" bandwidth=\"1\"/></AdaptationSet></Period>"
    let message = try await refusal(
      "<MPD type=\"static\">" + String(repeating: period, count: 3) + "</MPD>")
    #expect(message.contains("MPD/Period[2]/AdaptationSet[1]/Representation[1]"), "\(message)")
    #expect(message.contains("at most 200000 segments in all"), "\(message)")
  }

  /// Pins issue 36, item 14: `$SubNumber$` parses, but which parts to fetch is not settled.
  @Test func aSubNumberTemplateIsRefusedNamingIt() async throws {
    let message = try await refusal(
      Self.manifest().replacingOccurrences(of: "v$Number$.m4s", with: "v$Number$_$SubNumber$.m4s"))
    #expect(
      message.contains("$SubNumber$") && message.contains("cannot be downloaded"), "\(message)")
  }
}
