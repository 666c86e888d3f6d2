/// Builds indented XML text, one element at a time, escaping what it must.
package struct XMLText {
  /// The text so far.
  package private(set) var text = "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n"
  /// How deep the next element goes.
  private var depth = 0

  /// Starts a document with its XML declaration.
  package init() {}

  /// Starts the inside of an element at `depth`.
  private init(text: String, depth: Int) {
    self.text = text
    self.depth = depth
  }

  /// Writes `<name attributes...>`, then `body`'s elements (or `text`), then `</name>`; an
  /// element with neither is written as `<name .../>`. Attributes whose value is nil are left out.
  package mutating func element(
    _ name: String, _ attributes: [(String, String?)] = [], text: String? = nil,
    body: (inout XMLText) -> Void = { _ in }
  ) {
    let indent = String(repeating: "  ", count: depth)
    var open = indent + "<" + name
    for case (let key, let value?) in attributes {
      open += " \(key)=\"\(XMLText.escape(value, attribute: true))\""
    }
    if let text {
      self.text += open + ">" + XMLText.escape(text, attribute: false) + "</\(name)>\n"
      return
    }
    var inner = XMLText(text: "", depth: depth + 1)
    body(&inner)
    if inner.text.isEmpty {
      self.text += open + "/>\n"
    } else {
      self.text += open + ">\n" + inner.text + indent + "</\(name)>\n"
    }
  }

  /// `value` with `&`, `<`, `>` and quotes escaped; carriage returns always, and tabs and
  /// line feeds in attributes, as character references so a parser reads them back as they
  /// were (XML 1.0 §2.11, §3.3.3).
  package static func escape(_ value: String, attribute: Bool) -> String {
    var result = ""
    for scalar in value.unicodeScalars {
      switch scalar {
      case "&": result += "&amp;"
      case "<": result += "&lt;"
      case ">": result += "&gt;"
      case "\"" where attribute: result += "&quot;"
      case "\r": result += "&#13;"
      case "\n" where attribute: result += "&#10;"
      case "\t" where attribute: result += "&#9;"
      default: result.unicodeScalars.append(scalar)
      }
    }
    return result
  }
}
