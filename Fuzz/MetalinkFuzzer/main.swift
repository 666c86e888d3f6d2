// libFuzzer entry point for Metalink. Built by `scripts/fuzz metalink`, compiled in one module
// with the Metalink sources (HexDigits and XMLTree linked as libraries), so no import of it is
// needed and its internal rules can be asked again.
//
// Any input may fail to parse. A document that parses must hold only files that pass every
// rule: a safe, unique name, at least one usable URL and only http(s) ones offered, hashes of
// their function's length, piece hashes that cover the size in contiguous ranges. Messages
// must not carry control characters. The same bytes are read as a Link field value and as
// digest fields, whose accepted values are checked too. Anything else traps, and libFuzzer
// saves the input as a crash artifact.

import Foundation

/// Where every input is taken to come from.
let responseURL = URL(string: "https://origin.example.com/pub/file.iso?token=abc")!

/// Checks one input: as a Metalink, as a Link field value, as digest fields.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
  let data = Data(bytes: start, count: count)
  do {
    check(try MetalinkParser.parse(data))
  } catch {
    checkMessage(error)
  }
  let text = String(decoding: data, as: UTF8.self)
  checkLinks(MirrorLinks(fieldValues: [text], responseURL: responseURL))
  for digests in [HTTPDigests.structured(text), HTTPDigests.legacy(text)] {
    for digest in digests ?? [] {
      require(digest.bytes.count == digest.algorithm.digestLength, "a digest of the wrong length")
    }
  }
  return 0
}

/// Traps with `message` unless `condition` holds.
func require(_ condition: Bool, _ message: @autoclosure () -> String) {
  if !condition { fatalError(message()) }
}

func check(_ document: MetalinkDocument) {
  require(!document.files.isEmpty, "a document without files parsed")
  require(Set(document.files.map(\.name)).count == document.files.count, "two files share a name")
  document.refusedFiles.forEach(checkMessage)
  for file in document.files {
    require(
      FileNameRule.problem(with: file.name) == nil,
      "unsafe name kept: \(file.name.debugDescription)")
    let usable = file.usableURLs(preferring: "de")
    require(!usable.isEmpty, "a file without a usable URL was kept")
    for url in usable {
      let scheme = url.url?.scheme?.lowercased()
      require(scheme == "http" || scheme == "https", "a URL that is not http(s) is offered")
    }
    for checksum in file.hashes {
      require(checksum.bytes.count == checksum.algorithm.digestLength, "a hash of the wrong length")
      require(
        Checksum(checksum.algorithm, hex: checksum.hex) == checksum, "hex does not round-trip")
    }
    file.pieces.forEach(checkPieces)
  }
}

func checkPieces(_ pieces: PieceHashes) {
  require(pieces.length > 0, "a piece length of 0")
  require(
    pieces.hashes.allSatisfy { $0.count == pieces.algorithm.digestLength },
    "a piece hash of the wrong length")
  guard let size = pieces.fileSize else { return }
  require(
    UInt64(pieces.count) == PieceHashes.expectedCount(size: size, length: pieces.length),
    "\(pieces.count) pieces of \(pieces.length) for \(size) bytes")
  var next: UInt64 = 0
  for index in 0..<pieces.count {
    guard let range = pieces.byteRange(ofPiece: index) else {
      fatalError("piece \(index) has no range")
    }
    require(range.lowerBound == next && !range.isEmpty, "piece \(index) is not contiguous")
    require(pieces.piece(containing: range.lowerBound) == index, "offset maps to another piece")
    require(pieces.piece(containing: range.upperBound - 1) == index, "end maps to another piece")
    next = range.upperBound
  }
  require(next == size, "the pieces end at \(next), not at \(size)")
  require(pieces.piece(containing: size) == nil, "a piece past the end")
}

func checkMessage(_ error: MetalinkError) {
  require(!error.message.isEmpty, "an empty message")
  require(
    !error.description.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F },
    "a control character in a message: \(error.description.debugDescription)")
}

func checkLinks(_ links: MirrorLinks) {
  for link in links.duplicates {
    let scheme = link.url.scheme?.lowercased()
    require(scheme == "http" || scheme == "https", "a mirror that is not http(s)")
    require(link.priority.map { (1...999_999).contains($0) } ?? true, "a priority out of range")
    require(link.location.map { $0.count == 2 && $0 == $0.lowercased() } ?? true, "a bad geo")
    _ = links.orderedDuplicates(preferring: link.location)
  }
  for url in links.metalinks {
    let scheme = url.scheme?.lowercased()
    require(scheme == "http" || scheme == "https", "a Metalink URL that is not http(s)")
  }
}
