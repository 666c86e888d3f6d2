/// One element of a parsed XML document: its name with and without its namespace prefix, the
/// namespace it is in, its attributes, its child elements and its text.
///
/// Modules match elements by local name (`cenc:default_KID` is found as `default_KID`), or by
/// local name and ``namespace`` where a format says that elements of other namespaces are to be
/// ignored (RFC 5854 §2, Metalink).
package struct XMLNode: Sendable {
  /// The local name (`MPD`, `pssh`).
  package var name: String
  /// The qualified name as written (`cenc:pssh`).
  package var qualifiedName: String
  /// The namespace URI the element is in, from the `xmlns` declarations in scope; nil when
  /// none applies.
  package var namespace: String?
  /// Attributes by local name; an unprefixed attribute wins over a prefixed one with the same
  /// local name, and of two prefixed ones the first in name order wins.
  package var attributes: [String: String]
  /// Attributes as written, with their prefixes (`xlink:href`, `xmlns:cenc`): an unprefixed
  /// name here is an attribute in no namespace, which is how most formats name their own.
  package var qualifiedAttributes: [String: String]
  /// Child elements, in document order.
  package var children: [XMLNode]
  /// The text directly inside the element.
  package var text: String

  /// Creates an element.
  package init(
    name: String, qualifiedName: String, namespace: String? = nil,
    attributes: [String: String] = [:], qualifiedAttributes: [String: String] = [:],
    children: [XMLNode] = [], text: String = ""
  ) {
    self.name = name
    self.qualifiedName = qualifiedName
    self.namespace = namespace
    self.attributes = attributes
    self.qualifiedAttributes = qualifiedAttributes
    self.children = children
    self.text = text
  }

  /// The children whose local name is `name`.
  package func children(_ name: String) -> [XMLNode] { children.filter { $0.name == name } }
}

extension String {
  /// The string without leading and trailing spaces, tabs, carriage returns and line feeds.
  package func trimmingASCIIWhitespace() -> String {
    let blank: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
    guard let first = firstIndex(where: { !blank($0) }),
      let last = lastIndex(where: { !blank($0) })
    else { return "" }
    return String(self[first...last])
  }
}
