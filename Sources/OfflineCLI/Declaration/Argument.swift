/// A positional argument declared once, with the type of its value: a command lists it in
/// its ``CommandConfiguration`` and reads it with `arguments[Self.url]`.
///
/// ```swift
/// static let url: Argument<URL> = .required("url", noun: "URL", help: "The URL.", parser: .httpURL)
/// ```
struct Argument<Value: Sendable>: ArgumentDeclaring {
  /// The declaration without its value type.
  let spec: ArgumentSpec
  /// The value from the converted values given for it, in order.
  let read: @Sendable ([any Sendable]) -> Value
}

extension Argument {
  /// An argument that must be given; a missing one is "Missing <noun>.".
  static func required(
    _ name: String, noun: String? = nil, help: String, parser: ValueParser<Value>
  ) -> Argument<Value> {
    let spec = parser.argumentSpec(name, noun, help, isOptional: false, repeats: false)
    // The parser refuses a command line without it, so a value is there to read.
    return Argument(spec: spec) { $0[0] as! Value }
  }

  /// An argument that may be left out (nil then).
  static func optional<Wrapped: Sendable>(
    _ name: String, noun: String? = nil, help: String, parser: ValueParser<Wrapped>
  ) -> Argument<Wrapped?> where Value == Wrapped? {
    let spec = parser.argumentSpec(name, noun, help, isOptional: true, repeats: false)
    return Argument<Wrapped?>(spec: spec) { $0.first as? Wrapped }
  }

  /// Every remaining positional argument, none or more (the command says if none is wrong).
  static func repeating<Element: Sendable>(
    _ name: String, noun: String? = nil, help: String, parser: ValueParser<Element>
  ) -> Argument<[Element]> where Value == [Element] {
    let spec = parser.argumentSpec(name, noun, help, isOptional: true, repeats: true)
    return Argument<[Element]>(spec: spec) { $0.compactMap { $0 as? Element } }
  }
}

extension ValueParser {
  fileprivate func argumentSpec(
    _ name: String, _ noun: String?, _ help: String, isOptional: Bool, repeats: Bool
  ) -> ArgumentSpec {
    ArgumentSpec(
      name: name, help: help, noun: noun ?? name, isOptional: isOptional, isRepeatable: repeats,
      completion: completion, convert: convertAny)
  }
}
