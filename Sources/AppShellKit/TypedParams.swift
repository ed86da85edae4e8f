import Routing

/// A route's parameters with their types, as the screen or route declared them: an `int`
/// parameter reads as `Int`, a `float` as `Double`, a `*` capture or a repeated query item as
/// `[String]`.
///
/// ```swift
/// setup.screen("product", params: ["id": ScreenParameter(.int)]) { input in
///   let id = input.typed.int("id") ?? 0
///   return ScreenContent(title: "Product \(id)")
/// }
/// ```
public struct TypedParams: Sendable, Hashable {
  let values: Parameters

  /// The names of the parameters, in order.
  public var names: [String] { values.keys }

  /// The parameter as a whole number: an `int` value, or text that is a decimal integer.
  public func int(_ name: String) -> Int? {
    switch values[name] {
    case .int(let value)?: Int(exactly: value)
    case .string(let text)?: Int(text)
    default: nil
    }
  }

  /// The parameter as a number: a `float` or `int` value, or text that is a number.
  public func double(_ name: String) -> Double? {
    switch values[name] {
    case .float(let value)?: value
    case .int(let value)?: Double(value)
    case .string(let text)?: Double(text)
    default: nil
    }
  }

  /// The parameter as text (a number as it would be written in a URL); nil for a list.
  public func string(_ name: String) -> String? { values[name]?.text }

  /// The parameter as a list: a `*` capture's segments or a repeated query item's values; a
  /// single value is a list of one.
  public func strings(_ name: String) -> [String]? {
    switch values[name] {
    case .strings(let items)?: items
    case let value?: value.text.map { [$0] }
    case nil: nil
    }
  }
}
