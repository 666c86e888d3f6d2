import Foundation
import OfflineHTTP
import Testing

@testable import OfflineKit

/// Which answers name themselves a Metalink by their `Content-Type`
/// (``MetalinkPlan/describing(_:)``): every answer of a queue's files is asked, so the
/// type is trimmed by hand rather than through Foundation's character sets; this pins that
/// the blanks and capitals a server may send around the type are still read alike.
@Suite(.timed) struct MetalinkMediaTypeTests {
  static let url = URL(string: "http://127.0.0.1/file.bin")!

  static func head(contentType: String, status: Int = 200) -> HTTPResponseHead {
    HTTPResponseHead(
      status: status, headers: ["Content-Type": contentType], url: url, version: "HTTP/1.1")
  }

  @Test(arguments: [
    "application/metalink4+xml", " \tApplication/Metalink4+XML\t ; charset=utf-8",
    "application/metalink+xml;charset=utf-8", "APPLICATION/METALINK+XML ",
  ])
  func aMetalinkTypeIsReadWhateverTheBlanksAndCapitalsAroundIt(_ type: String) {
    #expect(MetalinkPlan.describing(Self.head(contentType: type)) == Self.url)
  }

  @Test(arguments: [
    "application/octet-stream", "", " ", "application/metalink4+xml-extra",
    "text/html; type=application/metalink4+xml", "application/ metalink4+xml",
  ])
  func anotherTypeIsNotTakenForAMetalink(_ type: String) {
    #expect(MetalinkPlan.describing(Self.head(contentType: type)) == nil)
  }

  @Test func aMetalinkTypeOnAnErrorIsNotTaken() {
    #expect(
      MetalinkPlan.describing(Self.head(contentType: "application/metalink4+xml", status: 404))
        == nil)
  }
}
