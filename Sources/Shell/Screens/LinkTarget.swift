import JSON
import Routing

/// A link to a destination instead of a URL (`"to": {"screen": "order-detail", "params":
/// {"orderid": 42}}`): its URL is the one the route table gives the destination
/// (`RouteTable.url(for:parameters:)`), found when the app loads and again on reload.
package enum LinkTarget {
  /// Reads a link's `to`: exactly one of `screen`, `action` or `notification`, and `params`
  /// (strings, numbers and arrays of strings).
  static func read(_ json: JSON, place: String) throws(ScreenFileError) -> (
    RouteTarget, Parameters
  ) {
    guard case .object(let members) = json else {
      throw ScreenFileError(
        "\(place): must be an object like {\"screen\":\"order-detail\",\"params\":{...}}")
    }
    var target: RouteTarget?
    var parameters = Parameters()
    for member in members {
      switch member.key {
      case "screen", "action", "notification":
        guard case .string(let name) = member.value, !name.isEmpty else {
          throw ScreenFileError("\(place).\(member.key): must be a non-empty string")
        }
        guard target == nil else {
          throw ScreenFileError("\(place).\(member.key): a link goes to one destination")
        }
        target =
          member.key == "screen"
          ? .screen(name) : member.key == "action" ? .action(name) : .notification(name)
      case "params":
        guard case .object(let values) = member.value else {
          throw ScreenFileError("\(place).params: must be an object")
        }
        for value in values {
          guard let parameter = parameterValue(value.value) else {
            throw ScreenFileError(
              "\(place).params.\(value.key): must be a string, a number or an array of strings")
          }
          parameters[value.key] = parameter
        }
      default:
        throw ScreenFileError("\(place).\(member.key): unknown field")
      }
    }
    guard let target else {
      throw ScreenFileError("\(place): needs a \"screen\", \"action\" or \"notification\"")
    }
    return (target, parameters)
  }

  private static func parameterValue(_ json: JSON) -> ParamValue? {
    switch json {
    case .string(let text): return .string(text)
    case .number(let text):
      if let number = CaptureType.int.value(of: text) { return number }
      return CaptureType.float.value(of: text)
    case .array(let items):
      var texts: [String] = []
      for item in items {
        guard case .string(let text) = item else { return nil }
        texts.append(text)
      }
      return .strings(texts)
    default: return nil
    }
  }

  /// `no route reaches screen order-detail with orderid=42`.
  package static func unreachable(_ target: RouteTarget, _ parameters: Parameters) -> String {
    let (kind, name): (String, String)
    switch target {
    case .screen(let screen): (kind, name) = ("screen", screen)
    case .action(let action): (kind, name) = ("action", action)
    case .notification(let notification): (kind, name) = ("notification", notification)
    case .redirect(let template): (kind, name) = ("redirect", template.text)
    }
    let values = parameters.keys.sorted().map { "\($0)=\(parameters[$0]!.stringValue ?? "")" }
    return "no route reaches \(kind) \(name)"
      + (values.isEmpty ? "" : " with " + values.joined(separator: ", "))
  }

  /// Every link to a destination of these screens that no route can say, in file order:
  /// `order-list.json: links[2].to: no route reaches screen order-detail with orderid=42`.
  package static func problems(_ screens: [ScreenDefinition], table: RouteTable)
    -> [(screen: String, link: Int, message: String)]
  {
    var problems: [(screen: String, link: Int, message: String)] = []
    for screen in screens {
      for (index, link) in screen.links.enumerated() {
        guard case .to(let target, let parameters, _) = link.kind,
          table.url(for: target, parameters: parameters) == nil
        else { continue }
        problems.append(
          (
            screen.name, index,
            "\(screen.name).json: links[\(index)].to: \(unreachable(target, parameters))"
          ))
      }
    }
    return problems
  }
}

extension ScreenDefinition {
  /// The screen with each link to a destination turned into a link to the URL the table gives
  /// it; a link no route can say is left out (`LinkTarget.problems(_:table:)` names it).
  package func resolvingLinks(in table: RouteTable) -> ScreenDefinition {
    var resolved = self
    resolved.links = links.compactMap { link in
      guard case .to(let target, let parameters, let key) = link.kind else { return link }
      guard let url = table.url(for: target, parameters: parameters),
        let template = try? TextTemplate(url)
      else { return nil }
      var made = link
      made.kind = key.map { .openForResult(template, key: $0) } ?? .open(template)
      return made
    }
    return resolved
  }
}
