// Shortcuts the tests use to parse a fixture as one kind of playlist or to get its error.
import HLSPlaylist
import Testing

/// Parses `text`, failing the test with the parser's message when it throws.
func parseMedia(_ text: String) throws -> MediaPlaylist {
  guard case .media(let media) = try PlaylistParser.parse(text) else {
    Issue.record("expected a media playlist")
    return MediaPlaylist(targetDuration: 0)
  }
  return media
}

/// Parses `text` as a master playlist.
func parseMaster(_ text: String) throws -> MasterPlaylist {
  guard case .master(let master) = try PlaylistParser.parse(text) else {
    Issue.record("expected a master playlist")
    return MasterPlaylist()
  }
  return master
}

/// The error `parse` throws for `text`, or nil when it parses.
func parseError(_ text: String) -> PlaylistError? {
  do {
    _ = try PlaylistParser.parse(text)
    return nil
  } catch {
    return error
  }
}
