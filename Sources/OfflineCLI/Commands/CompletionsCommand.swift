/// `offline completions <shell>`: a completion script made from the declarations.
struct CompletionsCommand: Command {
  /// The shells a script can be made for.
  enum Shell: String, CaseIterable, Sendable {
    case bash, zsh, fish
  }

  static let shell: Argument<Shell> = .required(
    "shell", help: "bash, zsh or fish.", parser: .choice(Shell.self))

  static let configuration = CommandConfiguration(
    name: "completions", abstract: "Print a shell completion script for offline.",
    discussion: """
      bash: source <(offline completions bash), or save it in
        ~/.local/share/bash-completion/completions/offline.
      zsh: save it as _offline in a folder of $fpath.
      fish: save it in ~/.config/fish/completions/offline.fish.
      """,
    arguments: [shell], command: Self.self)

  let chosen: Shell

  init(_ arguments: ParsedArguments) { chosen = arguments[Self.shell] }

  func run(_ context: CommandContext) async -> Int32 {
    let root = CommandPath(root: RootCommand.configuration)
    let script =
      switch chosen {
      case .bash: BashCompletion(root: root).render()
      case .zsh: ZshCompletion(root: root).render()
      case .fish: FishCompletion(root: root).render()
      }
    context.console.out(script)
    return ExitCode.success
  }
}
