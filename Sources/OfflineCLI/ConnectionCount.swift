import OfflineKit

/// `--connections <n>` as the library's choice: 0 (the default when the option is absent)
/// adaptive, 1 single, more fixed.
enum ConnectionCount {
  static func choice(_ count: Int) -> Transfer.Connections {
    switch count {
    case ...0: .adaptive
    case 1: .single
    default: .fixed(count)
    }
  }
}
