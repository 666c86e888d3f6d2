/// The version of OfflineKit.
public enum OfflineKitVersion {
  /// The version string, for example "0.1.0".
  public static let string = "0.1.0"
}
