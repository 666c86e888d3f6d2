import XMLTree

extension MetalinkError {
  /// The error for a document that could not be read as an XML tree.
  init(_ error: XMLTreeError) {
    switch error {
    case .notUTF8:
      self.init(.notXML, at: "metalink", "The Metalink is not UTF-8 text.")
    case .unsupportedEncoding(let name):
      self.init(
        .notXML, at: "metalink",
        "The Metalink declares encoding '\(MetalinkError.shown(name))'; only UTF-8 is read.")
    case .processingInstructionWithoutData(let offset):
      self.init(
        .notXML, at: "metalink",
        "The Metalink has a processing instruction without data at byte \(offset).")
    case .tooDeep(let line):
      self.init(
        .notXML, at: "line \(line)",
        "Elements are nested deeper than \(XMLTreeBuilder.maximumDepth) levels; a Metalink "
          + "needs far fewer.")
    case .notWellFormed(let line, let code):
      let reason = code.map { " (libxml2 error \($0))" } ?? ""
      self.init(.notXML, at: "line \(line)", "The Metalink is not well-formed XML\(reason).")
    }
  }
}
