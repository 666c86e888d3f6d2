import Foundation
import Metalink

// The code samples of Sources/Metalink/Metalink.docc/Metalink.md, compiled with the tests;
// DocCSampleTests checks that each sample is exactly the body of one of these functions.

/// "Overview": read a Metalink and pick mirrors and hashes.
func overviewReadingAMetalink(data: Data) throws {
  let metalink = try MetalinkParser.parse(data)
  for refused in metalink.refusedFiles {
    print("Skipped:", refused)
  }
  for file in metalink.files {
    let mirrors = file.usableURLs(preferring: "de")
    let expected = file.strongestHash(checkable: [.sha256])
    print(file.name, file.size ?? 0, mirrors.map(\.text), expected?.hex ?? "no hash")
    if let pieces = file.strongestPieces(checkable: [.sha256]),
      let first = pieces.byteRange(ofPiece: 0)
    {
      print(pieces.count, "pieces; the first is bytes", first)
    }
  }
}

/// "From the first response": mirrors and digests from a response's fields.
func overviewFromTheFirstResponse(
  linkFields: [String], headers: [(name: String, value: String)], responseURL: URL
) {
  let links = MirrorLinks(fieldValues: linkFields, responseURL: responseURL)
  let digests = HTTPDigests(fields: headers)
  let mirrors = links.orderedDuplicates(preferring: "de").map(\.url)
  let expected = Checksum.strongest(in: digests.representation, checkable: [.sha256])
  print(mirrors, links.metalinks, expected?.hex ?? "no digest")
}
