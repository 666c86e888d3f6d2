/// The exit codes of `offline` (see `--help`).
public enum ExitCode {
  /// Complete and verified.
  public static let success: Int32 = 0
  /// Failed; an `Error: ...` line says why.
  public static let failure: Int32 = 1
  /// The command was called wrongly.
  public static let usage: Int32 = 64
  /// Stopped by SIGINT (Ctrl-C); the partial data and journal are kept.
  public static let interrupted: Int32 = 130
  /// Stopped by SIGTERM; the partial data and journal are kept.
  public static let terminated: Int32 = 143
}
