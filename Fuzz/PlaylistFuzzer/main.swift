// libFuzzer entry point for HLSPlaylist. Built by `scripts/fuzz playlist`, compiled in one
// module with the HLSPlaylist sources, so no import is needed.
//
// Any input may fail to parse. Inputs are parsed as if fetched from `context` (the same URI
// and multivariant variables as `Fixtures.context` in Tests/HLSPlaylistTests), so
// `EXT-X-DEFINE` with `IMPORT` and `QUERYPARAM` is reached too. An input that parses must
// write back to text that parses, with no context, to the same playlist, and writing that
// again must give the same text. A master playlist's primary variants must be its own, each
// with backups that are redundant copies of it. Anything else traps, and libFuzzer saves the
// input as a crash artifact.

/// Where every input is taken to come from.
let context = PlaylistContext(
  uri: "https://origin.example.com/v/prog.m3u8?id=7&token=abc123&empty=",
  multivariantVariables: ["cdn": "https://cdn.example.com/show", "title": "Big Buck Bunny"])

/// Checks one input: parse, then write and parse again.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
  let text = String(decoding: UnsafeRawBufferPointer(start: start, count: count), as: UTF8.self)
  guard let playlist = try? PlaylistParser.parse(text, context: context).playlist else {
    return 0
  }
  let written = PlaylistWriter.write(playlist)
  let reparsed: Playlist
  do {
    reparsed = try PlaylistParser.parse(written)
  } catch {
    fatalError("The written playlist does not parse (\(error)):\n\(written)")
  }
  guard reparsed == playlist else {
    fatalError("Writing and parsing again changed the playlist:\n\(written)")
  }
  guard PlaylistWriter.write(reparsed) == written else {
    fatalError("Writing the playlist again gave other text:\n\(written)")
  }
  if case .master(let master) = playlist {
    _ = master.pathwayOrder
    for variant in master.primaryVariants {
      guard master.variants.contains(variant) else { fatalError("A primary variant not listed.") }
      for backup in master.backups(of: variant)
      where !MasterPlaylist.isRedundant(backup, with: variant) || backup.uri == variant.uri {
        fatalError("A backup that is not a copy of its variant:\n\(written)")
      }
    }
  }
  return 0
}
