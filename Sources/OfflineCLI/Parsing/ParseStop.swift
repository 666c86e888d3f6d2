/// Why parsing stopped before a command ran: help was asked for, or the command line was
/// wrong. Both name the command they are about, so its own help and usage are shown.
enum ParseStop: Error, Sendable {
  /// `-h` or `--help` was given to this command.
  case helpRequested(CommandPath)
  /// The command line was wrong for this command.
  case usage(UsageError, CommandPath)
}
