/// What a shell offers for a value: nothing in particular, file or folder names, or a list.
enum Completion: Sendable, Equatable {
  /// Any text; the shell offers nothing.
  case none
  /// A file name.
  case file
  /// A folder name.
  case directory
  /// One of these words.
  case values([String])
}
