/// `offline help`: a command's help page, or with `--man` the man page of the whole tool.
///
/// The man page is an option of `help` rather than a hidden command: it is one more
/// rendering of the same help, and the tool then has no command that help, completions and
/// the man page would have to leave out.
struct HelpCommand: Command {
  static let names: Argument<[String]> = .repeating(
    "subcommand",
    help: "The command to describe: a subcommand, or a group and one of its own"
      + " (cache get).", parser: .string)
  static let man: Option<Bool> = .flag(
    "--man",
    help: "Print the man page of the whole tool, in roff ('offline help --man | man -l -').")

  static let configuration = CommandConfiguration(
    name: "help", abstract: "Show the help of a subcommand, or the man page.",
    arguments: [names], options: [man], command: Self.self)

  let path: [String]
  let printsManPage: Bool

  init(_ arguments: ParsedArguments) throws(UsageError) {
    path = arguments[Self.names]
    printsManPage = arguments[Self.man]
    if printsManPage && !path.isEmpty {
      throw UsageError("--man prints the page of the whole tool; give it no subcommand.")
    }
  }

  func run(_ context: CommandContext) async throws(UsageError) -> Int32 {
    let root = CommandPath(root: RootCommand.configuration)
    if printsManPage {
      context.console.out(ManPage(root: root).render())
      return ExitCode.success
    }
    context.console.out(HelpText(path: try root.descendant(path).get()).render())
    return ExitCode.success
  }
}
