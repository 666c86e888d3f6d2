import Foundation

/// What went wrong in the service, as a sentence a user can act on.
public struct OfflineServiceError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The kinds of failure.
  package enum Kind: Sendable, Equatable {
    /// The address could not be bound (in use, or not an address of this machine).
    case cannotListen(String)
    /// A listener that other machines can reach was asked for without a token.
    case tokenRequired(String)
    /// The token is too short or holds characters a header or cookie cannot carry.
    case invalidToken
  }

  /// What happened.
  package var kind: Kind

  /// An error of `kind`.
  package init(_ kind: Kind) { self.kind = kind }

  /// The sentence.
  public var description: String {
    switch kind {
    case .cannotListen(let address):
      "Cannot listen on \(address): the port is in use or the address is not one of this"
        + " machine's."
    case .tokenRequired(let address):
      "Listening on \(address) lets other machines connect: a token is required."
    case .invalidToken:
      "The token must be 16 to 128 letters, digits, '-' or '_'."
    }
  }
}

extension OfflineServiceError {
  /// What went wrong, as a stable code to branch on: ``OfflineServiceError/code``. Codes are
  /// values, so a release can add one without breaking a `switch` that has a `default`.
  public struct Code: Hashable, Sendable, CustomStringConvertible {
    /// The code's name, such as `cannotListen`.
    public let name: String

    private init(_ name: String) { self.name = name }

    /// The code's name.
    public var description: String { name }

    /// The address could not be bound (in use, or not an address of this machine).
    public static let cannotListen = Code("cannotListen")

    /// A listener that other machines can reach was asked for without a token.
    public static let tokenRequired = Code("tokenRequired")

    /// The token is too short or holds characters a header or cookie cannot carry.
    public static let invalidToken = Code("invalidToken")
  }

  /// What went wrong.
  public var code: Code {
    switch kind {
    case .cannotListen: .cannotListen
    case .tokenRequired: .tokenRequired
    case .invalidToken: .invalidToken
    }
  }
}
