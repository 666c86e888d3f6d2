/// An ordered list of HTTP header fields with case-insensitive lookup.
///
/// Field order and repeated names are kept as received, so the list can be logged or replayed as is.
public struct HTTPHeaders: Sendable, Equatable, Sequence, ExpressibleByDictionaryLiteral {
  /// One header field.
  public struct Field: Sendable, Equatable {
    /// The field name as written by the sender.
    public var name: String
    /// The field value with surrounding white space removed.
    public var value: String

    /// Creates a field.
    public init(name: String, value: String) {
      self.name = name
      self.value = value
    }
  }

  private var fields: [Field]

  /// Creates a list from fields in order.
  public init(_ fields: [Field] = []) {
    self.fields = fields
  }

  /// Creates a list from name-value pairs in order.
  public init(dictionaryLiteral elements: (String, String)...) {
    self.fields = elements.map { Field(name: $0.0, value: $0.1) }
  }

  /// The first value for `name`, compared case-insensitively.
  public subscript(name: String) -> String? {
    fields.first { $0.name.equalsIgnoringASCIICase(name) }?.value
  }

  /// Every value for `name`, in order.
  public func values(for name: String) -> [String] {
    fields.filter { $0.name.equalsIgnoringASCIICase(name) }.map(\.value)
  }

  /// Appends a field, keeping any earlier field of the same name.
  public mutating func add(name: String, value: String) {
    fields.append(Field(name: name, value: value))
  }

  /// Replaces every field named `name` with one field, or removes them all when `value` is nil.
  public mutating func replaceOrAdd(name: String, value: String?) {
    fields.removeAll { $0.name.equalsIgnoringASCIICase(name) }
    if let value { fields.append(Field(name: name, value: value)) }
  }

  /// Iterates the fields in order.
  public func makeIterator() -> IndexingIterator<[Field]> {
    fields.makeIterator()
  }

  /// The number of fields.
  public var count: Int { fields.count }
}
