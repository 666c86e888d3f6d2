/// What identifies the bytes of a file on disk without reading them: its size, its
/// modification time to the nanosecond, and its inode on its device.
///
/// Recorded when a download completes; a later run that finds the same identity knows the
/// file was not rewritten, replaced or truncated since (a program that writes it changes the
/// modification time; a file put in its place has another inode). It is not a checksum: a
/// change that restores the modification time goes unseen, which is why a file with a known
/// SHA-256 is hashed again whenever its identity changed.
public struct FileIdentity: Sendable, Equatable, Hashable {
  /// The length in bytes.
  public var size: Int64
  /// The modification time, in nanoseconds since 1970.
  public var modificationNanoseconds: Int64
  /// The inode number.
  public var inode: Int64
  /// The device the inode is on.
  public var device: Int64

  /// Creates an identity.
  public init(size: Int64, modificationNanoseconds: Int64, inode: Int64, device: Int64) {
    self.size = size
    self.modificationNanoseconds = modificationNanoseconds
    self.inode = inode
    self.device = device
  }
}
