import Foundation

#if canImport(FoundationXML)
  import FoundationXML
#endif

/// Reads XML into `XMLNode`s with Foundation's `XMLParser` (libxml2 underneath), which
/// resolves no external entity and loads no DTD.
///
/// `XMLParser` runs without namespace processing (so prefixed names arrive as written and
/// `xmlns` declarations as attributes); the builder resolves each element's namespace itself
/// from the declarations in scope.
package final class XMLTreeBuilder: NSObject, XMLParserDelegate {
  /// The open elements, innermost last.
  private var stack: [XMLNode] = []
  /// The namespace prefixes in scope at each open element (`""` for the default namespace),
  /// innermost last, parallel to `stack`.
  private var scopes: [[String: String]] = []
  /// The root, once its end tag has been read.
  private var root: XMLNode?
  /// Whether the document went deeper than `maximumDepth`, which stopped the parse.
  private var tooDeep = false

  /// The deepest nesting read. An MPD or a Metalink needs about 10 levels; libxml2 as
  /// FoundationXML drives it sets no limit, and a tree nested 100,000 deep overflows the stack
  /// when it is freed (found by a test, not by the fuzzer, whose inputs are too short).
  package static let maximumDepth = 256

  /// Parses `data` and returns its root element.
  ///
  /// Only UTF-8 is read (MPDs and Metalinks are UTF-8 in practice): Foundation's
  /// `XMLParser` force-unwraps every name libxml2 hands it as UTF-8, so a byte that is not
  /// UTF-8 in an element name would trap the process; such input is refused first.
  ///
  /// - Throws: An `XMLTreeError` that says why.
  package static func parse(_ data: Data) throws(XMLTreeError) -> XMLNode {
    try checkEncoding(data)
    try checkProcessingInstructions(data)
    let builder = XMLTreeBuilder()
    let parser = XMLParser(data: data)
    parser.shouldProcessNamespaces = false
    parser.shouldReportNamespacePrefixes = false
    parser.shouldResolveExternalEntities = false
    parser.delegate = builder
    // libxml2's global state is shared with libavformat's DASH demuxer (``LibXML2``).
    let parsed = LibXML2.exclusively { parser.parse() }
    if builder.tooDeep { throw .tooDeep(line: parser.lineNumber) }
    guard parsed, let root = builder.root else {
      throw .notWellFormed(
        line: parser.lineNumber, code: parser.parserError.map { ($0 as NSError).code })
    }
    return root
  }

  package func parser(
    _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
    qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]
  ) {
    guard stack.count < XMLTreeBuilder.maximumDepth else {
      tooDeep = true
      parser.abortParsing()
      return
    }
    var attributes: [String: String] = [:]
    var scope = scopes.last ?? [:]
    for (name, value) in attributeDict.sorted(by: { $0.key < $1.key }) {
      let local = XMLTreeBuilder.localName(name)
      if attributes[local] == nil || !name.contains(":") { attributes[local] = value }
      if name == "xmlns" {
        scope[""] = value
      } else if name.hasPrefix("xmlns:") {
        scope[local] = value
      }
    }
    let prefix = XMLTreeBuilder.prefix(elementName)
    // An empty default namespace declaration (`xmlns=""`) puts an element in no namespace.
    let namespace = scope[prefix ?? ""].flatMap { $0.isEmpty ? nil : $0 }
    scopes.append(scope)
    stack.append(
      XMLNode(
        name: XMLTreeBuilder.localName(elementName), qualifiedName: elementName,
        namespace: namespace, attributes: attributes, qualifiedAttributes: attributeDict))
  }

  package func parser(
    _ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?,
    qualifiedName qName: String?
  ) {
    guard let node = stack.popLast() else { return }
    scopes.removeLast()
    if stack.isEmpty {
      root = node
    } else {
      stack[stack.count - 1].children.append(node)
    }
  }

  package func parser(_ parser: XMLParser, foundCharacters string: String) {
    guard !stack.isEmpty else { return }
    stack[stack.count - 1].text += string
  }

  package func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) {
    guard !stack.isEmpty else { return }
    stack[stack.count - 1].text += String(decoding: CDATABlock, as: UTF8.self)
  }

  /// Refuses bytes that are not UTF-8, and an XML declaration naming another encoding
  /// (which libxml2 would convert from, outside what we checked).
  private static func checkEncoding(_ data: Data) throws(XMLTreeError) {
    guard let text = String(validating: data, as: UTF8.self) else { throw .notUTF8 }
    var head = Substring(text)
    if head.first == "\u{FEFF}" { head = head.dropFirst() }
    guard head.hasPrefix("<?xml"), let end = head.range(of: "?>") else { return }
    let declaration = head[..<end.lowerBound]
    guard let encoding = declaration.range(of: "encoding") else { return }
    let value = declaration[encoding.upperBound...].drop {
      $0 == " " || $0 == "=" || $0 == "\"" || $0 == "'"
    }
    .prefix { $0 != "\"" && $0 != "'" }
    guard ["utf-8", "utf8", "us-ascii", "ascii"].contains(value.lowercased()) else {
      throw .unsupportedEncoding(String(value.prefix(40)))
    }
  }

  /// Refuses a processing instruction without data (`<?name?>`): libxml2 hands Foundation
  /// a NULL data pointer for it, and Foundation's `XMLParser` reads it with `strlen`, which
  /// crashes the process. Found by `scripts/fuzz mpd`.
  private static func checkProcessingInstructions(_ data: Data) throws(XMLTreeError) {
    let bytes = [UInt8](data)
    var index = 0
    while index + 1 < bytes.count {
      defer { index += 1 }
      guard bytes[index] == UInt8(ascii: "<"), bytes[index + 1] == UInt8(ascii: "?") else {
        continue
      }
      var end = index + 2
      // A target ends at a blank or `?`; stopping at `<` too keeps the scan linear.
      let stops: [UInt8] = [0x20, 0x09, 0x0A, 0x0D, UInt8(ascii: "?"), UInt8(ascii: "<")]
      while end < bytes.count, !stops.contains(bytes[end]) { end += 1 }
      if end + 1 < bytes.count, bytes[end] == UInt8(ascii: "?"), bytes[end + 1] == UInt8(ascii: ">")
      {
        throw .processingInstructionWithoutData(offset: index)
      }
    }
  }

  /// `name` without its namespace prefix.
  private static func localName(_ name: String) -> String {
    guard let colon = name.lastIndex(of: ":") else { return name }
    return String(name[name.index(after: colon)...])
  }

  /// The namespace prefix of `name`, or nil when it has none.
  private static func prefix(_ name: String) -> String? {
    guard let colon = name.lastIndex(of: ":") else { return nil }
    return String(name[..<colon])
  }
}
