/// Why bytes could not be read as an XML tree. Each module turns it into its own error type,
/// with its own words for the document (a manifest, a Metalink).
package enum XMLTreeError: Error, Sendable, Equatable {
  /// The bytes are not UTF-8.
  case notUTF8
  /// The XML declaration names an encoding other than UTF-8 (or its ASCII subset).
  case unsupportedEncoding(String)
  /// A processing instruction without data (`<?name?>`) at this byte offset, which
  /// Foundation's `XMLParser` would crash on.
  case processingInstructionWithoutData(offset: Int)
  /// Elements are nested deeper than ``XMLTreeBuilder/maximumDepth``, at this line.
  case tooDeep(line: Int)
  /// libxml2 found the text not well-formed, at this line, with its error code when it gave one.
  case notWellFormed(line: Int, code: Int?)
}
