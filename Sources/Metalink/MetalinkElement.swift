import XMLTree

/// An element of a Metalink with its path, read only through children in the document's
/// namespace and attributes without a prefix, so markup from other namespaces is ignored
/// (RFC 5854 §5, Metalink 3 §4).
struct MetalinkElement {
  /// The element.
  let node: XMLNode
  /// Its path for messages, such as `metalink/file[2]`.
  let path: String
  /// The namespace the document's elements are in (nil for a Metalink 3 without one).
  let namespace: String?

  /// The children named `name` in the document's namespace, each with its path.
  func children(_ name: String) -> [MetalinkElement] {
    node.children.filter { $0.name == name && $0.namespace == namespace }.enumerated().map {
      MetalinkElement(node: $1, path: "\(path)/\(name)[\($0 + 1)]", namespace: namespace)
    }
  }

  /// The first child named `name` in the document's namespace.
  func child(_ name: String) -> MetalinkElement? {
    guard let node = node.children.first(where: { $0.name == name && $0.namespace == namespace })
    else { return nil }
    return MetalinkElement(node: node, path: "\(path)/\(name)", namespace: namespace)
  }

  /// The attribute `name` written without a prefix.
  func attribute(_ name: String) -> String? { node.qualifiedAttributes[name] }

  /// The element's text, whitespace trimmed; nil when empty.
  var text: String? {
    let text = node.text.trimmingASCIIWhitespace()
    return text.isEmpty ? nil : text
  }

  /// The trimmed text of the first child named `name`.
  func childText(_ name: String) -> String? { child(name)?.text }

  /// The trimmed texts of every child named `name`.
  func childTexts(_ name: String) -> [String] { children(name).compactMap(\.text) }
}
