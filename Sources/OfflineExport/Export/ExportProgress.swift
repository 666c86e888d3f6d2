/// How far an export has got.
public struct ExportProgress: Sendable, Equatable {
  /// What the export is doing.
  public enum Phase: Sendable, Equatable {
    /// Copying packets into the new file.
    case writing
    /// Reading the new file back and comparing it with the offline copy.
    case verifying
  }

  /// What the export is doing.
  public var phase: Phase
  /// The share of the phase done, from 0 to 1, by media time against the playlist's duration.
  public var fraction: Double
  /// Packets handled so far in this phase.
  public var packets: Int

  /// Creates a progress report.
  public init(phase: Phase, fraction: Double, packets: Int) {
    self.phase = phase
    self.fraction = fraction
    self.packets = packets
  }
}
