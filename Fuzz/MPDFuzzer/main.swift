// libFuzzer entry point for DASHManifest. Built by `scripts/fuzz mpd`, compiled in one module
// with the DASHManifest sources, so no import of it is needed.
//
// Any input may fail to parse. An input that parses must write back to text that parses to
// the same MPD, and writing that again must give the same text; every Representation's
// segments are then listed (under a small bound, so a huge count must be refused, not
// allocated), and the offline manifest made from them must parse too. The same bytes are
// also read as a `sidx` box. The `BaseURL` alternatives of each Representation stay within
// their bound and list under the same bound. Anything else traps, and libFuzzer saves the
// input as a crash artifact.

import Foundation

/// Where every input is taken to come from.
let manifestURL = URL(string: "https://origin.example.com/v/manifest.mpd?token=abc")!

/// Checks one input: parse, write, parse again, list segments, read as sidx.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
  let bytes = [UInt8](UnsafeRawBufferPointer(start: start, count: count))
  if let sidx = try? SegmentIndex.parse(bytes) {
    _ = try? sidx.byteRanges(indexRange: ByteRange(first: 0, last: UInt64(count))!)
  }
  guard let mpd = try? MPDParser.parse(Data(bytes)) else { return 0 }
  let written = MPDWriter.write(mpd)
  let reparsed: MPD
  do {
    reparsed = try MPDParser.parse(written)
  } catch {
    fatalError("The written MPD does not parse (\(error)):\n\(written)")
  }
  guard reparsed == mpd else {
    fatalError("Writing and parsing again changed the MPD:\n\(written)")
  }
  guard MPDWriter.write(reparsed) == written else {
    fatalError("Writing the MPD again gave other text:\n\(written)")
  }
  let resolver = SegmentResolver(maximumSegmentCount: 5_000)
  var files: [RepresentationPath: OfflineRepresentation] = [:]
  for path in mpd.representationPaths {
    guard let listing = try? resolver.segments(for: path, in: mpd, manifestURL: manifestURL)
    else { continue }
    guard listing.segments.count <= resolver.maximumSegmentCount else {
      fatalError("\(listing.segments.count) segments passed the bound at \(path).")
    }
    let choices = resolver.baseURLChoices(for: path, in: mpd)
    guard (1...SegmentResolver.maximumBaseURLChoices).contains(choices.count) else {
      fatalError("\(choices.count) BaseURL choices at \(path).")
    }
    for choice in choices.dropFirst() {
      let other = try? resolver.segments(
        for: path, in: mpd, manifestURL: manifestURL, choice: choice)
      guard (other?.segments.count ?? 0) <= resolver.maximumSegmentCount else {
        fatalError("A BaseURL choice passed the bound at \(path).")
      }
    }
    let names = listing.segments.indices.map { "\(path.representation)/\($0).m4s" }
    files[path] = try? OfflineRepresentation(
      listing, initialization: "\(path.representation)/init.mp4", segmentNames: names)
  }
  guard let offline = try? OfflineManifest.make(from: mpd, files: files) else {
    fatalError("The offline manifest could not be made.")
  }
  do {
    _ = try MPDParser.parse(MPDWriter.write(offline))
  } catch {
    fatalError("The offline MPD does not parse (\(error)):\n\(MPDWriter.write(offline))")
  }
  return 0
}
