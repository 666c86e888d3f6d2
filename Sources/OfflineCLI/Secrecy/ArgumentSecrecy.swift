import Foundation
import OfflineHTTP

/// Which values of an option are secrets that the process's command line stops showing once
/// they are read: `/proc/<pid>/cmdline`, which `ps` shows every local user, holds them for
/// the whole run otherwise (curl blanks its `-u` argument for the same reason).
enum ArgumentSecrecy: Sendable, Equatable {
  /// Never a secret.
  case none
  /// Always one (`-u user:password`, `serve --token`).
  case always
  /// A URL with `user:password@` (`--proxy`).
  case whenItHoldsUserInfo
  /// A header line whose field carries a secret (`Authorization`, `Cookie`,
  /// `Proxy-Authorization`, or a name given with an option that ``namesSecretHeader``).
  case whenItIsASecretHeader
  /// Not a secret itself: names a header field whose values are (`--secret-header`).
  case namesSecretHeader

  /// The texts among `given` (each option's secrecy with the text typed for it) that are
  /// secrets.
  static func secrets(among given: [(ArgumentSecrecy, String)]) -> [String] {
    let secretNames = Set(
      given.filter { $0.0 == .namesSecretHeader }.map { $0.1.lowercased() }
    ).union(RequestOptions.alwaysSecret)
    return given.compactMap { secrecy, text in
      switch secrecy {
      case .none, .namesSecretHeader: return nil
      case .always: return text
      case .whenItHoldsUserInfo: return text.contains("@") ? text : nil
      case .whenItIsASecretHeader:
        let name = text.split(separator: ":", maxSplits: 1).first.map(String.init) ?? text
        let trimmed = name.trimmingCharacters(in: .whitespaces).lowercased()
        return secretNames.contains(trimmed) ? text : nil
      }
    }
  }
}
