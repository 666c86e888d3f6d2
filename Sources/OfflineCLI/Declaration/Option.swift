/// An option declared once, with the type of its value: a command lists it in its
/// ``CommandConfiguration`` and reads it with `arguments[Self.output]`.
///
/// ```swift
/// static let output: Option<String?> = .value(
///   "-o", "--output", valueName: "path", help: "Where to put the file.", parser: .file)
/// static let retries: Option<Int> = .value(
///   "--retries", valueName: "n", help: "Attempts.", default: "5", parser: .integer(atLeast: 1))
/// static let force: Option<Bool> = .flag("--force", help: "Replace the file.")
/// static let headers: Option<[String]> = .repeating(
///   "-H", "--header", valueName: "line", help: "A request header.", parser: .string)
/// ```
struct Option<Value: Sendable>: OptionDeclaring {
  /// The declaration without its value type.
  let spec: OptionSpec
  /// The value from every occurrence's converted value, in order.
  let read: @Sendable ([any Sendable]) -> Value
}

extension Option {
  /// This option, its values blanked from the process's command line once read when
  /// `secrecy` says they hold a secret (see ``ArgumentSecrecy``).
  func hidingValues(_ secrecy: ArgumentSecrecy) -> Option {
    var spec = spec
    spec.secrecy = secrecy
    return Option(spec: spec, read: read)
  }
}

extension Option {
  /// This option, made one the command cannot run without (see ``OptionSpec/isRequired``);
  /// its value type stays optional, but a run never sees nil.
  func required() -> Option {
    var spec = spec
    spec.isRequired = true
    return Option(spec: spec, read: read)
  }
}

extension Option where Value == Bool {
  /// A flag: true when given.
  static func flag(_ names: String..., help: String) -> Option<Bool> {
    Option(spec: OptionSpec(names: names, valueName: nil, help: help)) { !$0.isEmpty }
  }
}

extension Option {
  /// An option with a value, nil when not given; given twice, the last one counts.
  static func value<Wrapped: Sendable>(
    _ names: String..., valueName: String, help: String, parser: ValueParser<Wrapped>
  ) -> Option<Wrapped?> where Value == Wrapped? {
    Option<Wrapped?>(spec: parser.spec(names, valueName, help, defaultText: nil, repeats: false)) {
      $0.last as? Wrapped
    }
  }

  /// An option with a value and a default, written as a user would type it (help shows it
  /// as `(default: …)`); given twice, the last one counts.
  static func value(
    _ names: String..., valueName: String, help: String, default text: String,
    parser: ValueParser<Value>
  ) -> Option<Value> {
    let fallback: Value
    do {
      fallback = try parser.read(text)
    } catch {
      preconditionFailure("The default '\(text)' of \(names) does not parse: \(error)")
    }
    return Option(spec: parser.spec(names, valueName, help, defaultText: text, repeats: false)) {
      ($0.last as? Value) ?? fallback
    }
  }

  /// An option that may be given again and again; every value is kept, in order.
  static func repeating<Element: Sendable>(
    _ names: String..., valueName: String, help: String, parser: ValueParser<Element>
  ) -> Option<[Element]> where Value == [Element] {
    Option<[Element]>(spec: parser.spec(names, valueName, help, defaultText: nil, repeats: true)) {
      $0.compactMap { $0 as? Element }
    }
  }
}

extension ValueParser {
  /// The type-free declaration of an option whose values this parser reads.
  fileprivate func spec(
    _ names: [String], _ valueName: String, _ help: String, defaultText: String?, repeats: Bool
  ) -> OptionSpec {
    OptionSpec(
      names: names, valueName: valueName, help: help, defaultText: defaultText,
      isRepeatable: repeats, completion: completion, convert: convertAny)
  }
}
