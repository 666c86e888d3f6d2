/// One positional argument's declaration without its value type. Made by ``Argument``.
struct ArgumentSpec: Sendable {
  /// Its name in help and usage (`url` shows as `<url>`).
  let name: String
  /// What it is, as help shows it.
  let help: String
  /// What a missing one is called in "Missing URL.".
  let noun: String
  /// Whether it may be left out.
  let isOptional: Bool
  /// Whether it takes every remaining positional argument.
  let isRepeatable: Bool
  /// What a shell offers for it.
  let completion: Completion
  /// Reads one value; a value it refuses says what it takes.
  let convert: @Sendable (String) throws(ValueError) -> any Sendable

  /// `<url>`, `[<id>]` or `<url> ...`, as usage shows it.
  var usage: String {
    let word = "<\(name)>" + (isRepeatable ? " ..." : "")
    return isOptional ? "[\(word)]" : word
  }
}
