import XMLTree

extension MPDError {
  /// The error for a manifest that could not be read as an XML tree, in the manifest's words.
  init(_ error: XMLTreeError) {
    switch error {
    case .notUTF8:
      self.init(.notXML, at: "MPD", "The manifest is not UTF-8 text.")
    case .unsupportedEncoding(let name):
      self.init(.notXML, at: "MPD", "The manifest declares encoding '\(name)'; only UTF-8 is read.")
    case .processingInstructionWithoutData(let offset):
      self.init(
        .notXML, at: "MPD",
        "The manifest has a processing instruction without data at byte \(offset).")
    case .tooDeep(let line):
      self.init(
        .unsupported, at: "line \(line)",
        "Elements are nested deeper than \(XMLTreeBuilder.maximumDepth) levels; an MPD needs far "
          + "fewer.")
    case .notWellFormed(let line, let code):
      let reason = code.map { " (\($0))" } ?? ""
      self.init(.notXML, at: "line \(line)", "The manifest is not well-formed XML\(reason).")
    }
  }
}
