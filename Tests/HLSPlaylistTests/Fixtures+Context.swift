import HLSPlaylist

extension Fixtures {
  /// Where `variablesImported` and `variablesQueryMaster` were fetched from. The playlist fuzzer
  /// (`Fuzz/PlaylistFuzzer/main.swift`) parses with the same URI and variables.
  static let context = PlaylistContext(
    uri: "https://origin.example.com/v/prog.m3u8?id=7&token=abc123&empty=",
    multivariantVariables: ["cdn": "https://cdn.example.com/show", "title": "Big Buck Bunny"])

  /// Fixtures that need `context` to parse, by name; each is also a seed file of the fuzzer.
  static let withContext: [(name: String, text: String)] = [
    ("variables-imported", variablesImported),
    ("variables-query-master", variablesQueryMaster),
  ]
}
