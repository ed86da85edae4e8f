/// The regular expression of a `:name(REGEX)` placeholder, compiled once when its pattern is,
/// and compared by its text.
///
/// A lookup can never hang on one: a REGEX whose matching could backtrack without bound is
/// refused when the pattern is compiled, and a value longer than
/// ``maxInputBytes`` never matches, so the work of one test is bounded by a small polynomial
/// of a bounded length.
public struct RouteRegex: Sendable, Hashable, CustomStringConvertible {
  /// The REGEX as written, without the parentheses around it.
  public let source: String
  private let compiled: Compiled

  /// The longest value, in UTF-8 bytes, that a regular expression is tried on; a longer one
  /// does not match.
  public static let maxInputBytes = 256
  /// The most quantifiers that can take a varying count (`*`, `+`, `?`, `{n,}`, `{n,m}`) in one
  /// REGEX.
  public static let maxVariableQuantifiers = 2
  /// The most `|` in one REGEX.
  public static let maxAlternations = 4

  /// Compiles `source`, or says why it is refused.
  init(_ source: String) throws(RegexRefusal) {
    if let hazard = Self.hazard(Array(source.utf8)) { throw hazard }
    do {
      compiled = Compiled(try Regex(source))
    } catch {
      throw RegexRefusal(message: "invalid regular expression: \(error)")
    }
    self.source = source
  }

  /// Whether the regular expression matches all of `text`.
  public func matches(_ text: String) -> Bool {
    guard text.utf8.count <= Self.maxInputBytes else { return false }
    return (try? compiled.regex.wholeMatch(in: text)) != nil
  }

  /// Whether the regular expression matches all of the UTF-8 `bytes`.
  func matches(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    guard bytes.count <= Self.maxInputBytes else { return false }
    return (try? compiled.regex.wholeMatch(in: String(decoding: bytes, as: UTF8.self))) != nil
  }

  /// The REGEX as written.
  public var description: String { source }

  /// Equal when the text is the same, byte for byte.
  public static func == (a: RouteRegex, b: RouteRegex) -> Bool {
    a.source.utf8.elementsEqual(b.source.utf8)
  }

  /// Hashes the text.
  public func hash(into hasher: inout Hasher) { hasher.combine(source) }

  /// The compiled expression, shared by every copy of the pattern.
  ///
  /// `@unchecked Sendable` because the standard library's `Regex` is not declared `Sendable`,
  /// though it is an immutable value: its only mutable state is the program it compiles on
  /// first use, which it publishes with an atomic compare-and-exchange. That first use is made
  /// here, in `init`, before the value can be shared; afterwards it is only read.
  private final class Compiled: @unchecked Sendable {
    let regex: Regex<AnyRegexOutput>

    init(_ regex: Regex<AnyRegexOutput>) {
      self.regex = regex
      _ = try? regex.wholeMatch(in: "")
    }
  }

  /// The first construct of a REGEX that could make matching backtrack without bound, or nil:
  /// a backreference, a quantifier on a group that holds a varying quantifier or an
  /// alternation (`(a+)+`, `(a|ab)*`), more than ``maxVariableQuantifiers`` varying
  /// quantifiers, or more than ``maxAlternations`` `|`. What is left can try at most about
  /// 2^4 x n^2 / 2 paths on a value of n bytes (n <= ``maxInputBytes``). The REGEX is read
  /// only as far as these need; what does not compile is left to `Regex`.
  static func hazard(_ bytes: [UInt8]) -> RegexRefusal? {
    struct Group {
      var varies = false
      var alternates = false
    }
    var stack = [Group()]
    // What the next quantifier applies to: nothing, one atom, or a group just closed.
    var last: Group?
    var atom = false
    var variable = 0
    var alternations = 0
    var index = 0
    while index < bytes.count {
      let byte = bytes[index]
      switch byte {
      case 0x5C:  // `\`
        let next = index + 1 < bytes.count ? bytes[index + 1] : 0
        if (0x31...0x39).contains(next) || next == 0x6B || next == 0x67 {
          return RegexRefusal(message: "a backreference is not allowed")
        }
        index += 2
        // `\p{...}`, `\x{...}`, `\u{...}`: skip the braces.
        if index < bytes.count, bytes[index] == 0x7B, next.isASCIILetter {
          while index < bytes.count, bytes[index] != 0x7D { index += 1 }
          index += 1
        }
        (atom, last) = (true, nil)
        continue
      case 0x5B:  // `[`: a class, to its `]`; nested classes and escapes inside
        var depth = 0
        var cursor = index
        while cursor < bytes.count {
          let inner = bytes[cursor]
          if inner == 0x5C {
            cursor += 2
            continue
          }
          if inner == 0x5B {
            depth += 1
            cursor += 1
            if cursor < bytes.count, bytes[cursor] == 0x5E { cursor += 1 }
            if cursor < bytes.count, bytes[cursor] == 0x5D { cursor += 1 }
            continue
          }
          if inner == 0x5D {
            depth -= 1
            if depth == 0 { break }
          }
          cursor += 1
        }
        index = cursor + 1
        (atom, last) = (true, nil)
        continue
      case 0x28:  // `(`, skipping what says the kind of group
        stack.append(Group())
        index += 1
        if index < bytes.count, bytes[index] == 0x3F {
          index += 1
          if index < bytes.count, bytes[index] == 0x3C,
            index + 1 < bytes.count, bytes[index + 1] != 0x3D, bytes[index + 1] != 0x21
          {
            while index < bytes.count, bytes[index] != 0x3E { index += 1 }
            index += 1
          } else {
            while index < bytes.count, bytes[index] != 0x29, bytes[index] != 0x3A,
              bytes[index] != 0x28, bytes[index] != 0x5B, bytes[index] != 0x5C
            {
              index += 1
            }
            if index < bytes.count, bytes[index] == 0x3A { index += 1 }
          }
        }
        (atom, last) = (false, nil)
        continue
      case 0x29:  // `)`
        if stack.count > 1 {
          let group = stack.removeLast()
          if group.varies { stack[stack.count - 1].varies = true }
          (atom, last) = (false, group)
        }
      case 0x7C:  // `|`
        alternations += 1
        if alternations > maxAlternations {
          return RegexRefusal(message: "more than \(maxAlternations) '|'")
        }
        stack[stack.count - 1].alternates = true
        (atom, last) = (false, nil)
      case 0x2A, 0x2B, 0x3F, 0x7B:  // `*`, `+`, `?`, `{`
        var varies = true
        var end = index + 1
        if byte == 0x7B {
          // `{n}` is a fixed count; `{n,}` and `{n,m}` vary; anything else is a literal `{`.
          var cursor = index + 1
          while cursor < bytes.count, bytes[cursor] != 0x7D { cursor += 1 }
          guard cursor < bytes.count else { break }
          let inside = bytes[(index + 1)..<cursor]
          guard inside.allSatisfy({ $0.isASCIIDigit || $0 == 0x2C }), !inside.isEmpty else {
            break
          }
          varies = inside.contains(0x2C)
          end = cursor + 1
        }
        guard atom || last != nil else { break }
        if let group = last, group.varies || group.alternates {
          return RegexRefusal(
            message: "a quantifier on a group that holds a quantifier or '|' can backtrack "
              + "without bound")
        }
        if varies {
          variable += 1
          stack[stack.count - 1].varies = true
          if variable > maxVariableQuantifiers {
            return RegexRefusal(
              message: "more than \(maxVariableQuantifiers) quantifiers of varying count")
          }
        }
        // A lazy `?` or possessive `+` after a quantifier is part of it.
        if end < bytes.count, bytes[end] == 0x3F || bytes[end] == 0x2B { end += 1 }
        index = end
        (atom, last) = (false, nil)
        continue
      default:
        break
      }
      if byte != 0x29, byte != 0x7C { (atom, last) = (true, nil) }
      index += 1
    }
    return nil
  }
}

/// Why a REGEX is refused.
struct RegexRefusal: Error {
  var message: String
}
