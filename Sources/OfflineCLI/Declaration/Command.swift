import Foundation

/// A command of `offline`, declared once in a ``CommandConfiguration`` (its `configuration`).
///
/// The declaration drives parsing, `--help`, the usage line, usage errors, completions and the
/// man page; the type only says how it is made from what was parsed and what it does:
///
/// ```swift
/// struct HelloCommand: Command {
///   static let name: Option<String> = .value(
///     "--name", valueName: "name", help: "Who to greet.", default: "world", parser: .string)
///   static let configuration = CommandConfiguration(
///     name: "hello", abstract: "Greet someone.", options: [name], command: Self.self)
///
///   let who: String
///   init(_ arguments: ParsedArguments) { who = arguments[Self.name] }
///   func run(_ context: CommandContext) async -> Int32 {
///     context.console.out("Hello, \(who).")
///     return ExitCode.success
///   }
/// }
/// ```
protocol Command: Sendable {
  /// Reads the typed values the declaration accepted; throws a ``UsageError`` for what one
  /// option alone cannot say (options that go together, a value that needs another).
  init(_ arguments: ParsedArguments) throws(UsageError)

  /// Does the work and returns the exit code. A usage problem found only now (a proxy
  /// variable that cannot be used) is thrown; the tool prints it with this command's usage.
  func run(_ context: CommandContext) async throws(UsageError) -> Int32
}
