import JSON
import Routing

/// The Swift names of a table's destinations: one case each, labels for their parameters and
/// nested enums for value sets; two names that become one Swift name are an error naming both.
struct Model {
  struct Parameter {
    var parameter: DestinationParameter
    /// The label, escaped when it is a keyword; also the name of its local binding.
    var label: String
    var swiftType: String
    /// The conversion from a `ParamValue` that generated code passes to `Parameters`.
    var conversion: String
    /// How the value is written back as a `ParamValue`, for the binding `name`.
    var write: @Sendable (String) -> String

    var binding: String { label }
    func value(_ name: String) -> String { write(name) }
  }

  struct Case {
    var destination: Destination
    var name: String
    var parameters: [Parameter]
  }

  struct ValueSet {
    var name: String
    var alternatives: [String]
    var cases: [(name: String, raw: String)]
    var parameterNames: [String]
  }

  var cases: [Case] = []
  var valueSets: [ValueSet] = []

  /// Names the generated members need, which no case may take.
  static let reservedCases: Set<String> = [
    "target", "parameters", "url", "init", "self", "Type", "Protocol",
  ]
  /// Names the generated code refers to, which no nested enum may take.
  static let reservedTypes: Set<String> = [
    "Parameters", "Resolution", "RouteTarget", "ParamValue", "TypedRoute", "Routing", "Swift",
    "String", "Int", "Int64", "Double", "Optional", "Array", "Hashable", "Sendable",
    "CaseIterable", "Self", "Type", "Protocol", "Any",
  ]
  /// Names a `String` enum has, which no value may take.
  static let reservedValues: Set<String> = [
    "rawValue", "allCases", "hashValue", "init", "self", "Type", "Protocol",
  ]

  init(_ destinations: [Destination], typeName: String) throws(CodegenError) {
    var kindsByName: [String: Set<String>] = [:]
    for destination in destinations {
      let (kind, name) = Self.parts(destination.target)
      kindsByName[name, default: []].insert(kind)
    }
    var caseOwners: [String: Destination] = [:]
    var typeOwners: [String: (values: [String], owner: String)] = [:]
    for destination in destinations {
      let (kind, name) = Self.parts(destination.target)
      guard var caseName = SwiftNames.lowerCamelCase(name) else {
        throw CodegenError(
          "\(kind) \(JSON.quote(name)): no Swift name (it has no ASCII letter or digit)")
      }
      if kindsByName[name]!.count > 1, kind != "screen" {
        caseName += kind == "action" ? "Action" : "Notification"
      }
      if let other = caseOwners[caseName] {
        throw CodegenError(
          "\(Self.describe(other.target)) and \(Self.describe(destination.target)) both become "
            + "the case \(typeName).\(caseName)")
      }
      if Self.reservedCases.contains(caseName) {
        throw CodegenError(
          "\(Self.describe(destination.target)) becomes the case \(typeName).\(caseName), which "
            + "the generated type needs for a member of its own")
      }
      caseOwners[caseName] = destination
      var labels: [String: String] = [:]
      var parameters: [Parameter] = []
      for parameter in destination.parameters {
        let place = "\(Self.describe(destination.target)): parameter \(JSON.quote(parameter.name))"
        guard let label = SwiftNames.lowerCamelCase(parameter.name) else {
          throw CodegenError("\(place): no Swift name (it has no ASCII letter or digit)")
        }
        if let other = labels[label] {
          throw CodegenError(
            "\(Self.describe(destination.target)): parameters \(JSON.quote(other)) and "
              + "\(JSON.quote(parameter.name)) both become the label \(label)")
        }
        labels[label] = parameter.name
        var made = try Self.parameter(parameter, label: label, place: place)
        if case .valueSet(let alternatives) = parameter.type {
          guard let typeName2 = SwiftNames.upperCamelCase(parameter.name) else {
            throw CodegenError("\(place): no Swift type name")
          }
          if typeName2 == typeName || Self.reservedTypes.contains(typeName2) {
            throw CodegenError(
              "\(place): its values become the type \(typeName).\(typeName2), a name the "
                + "generated code needs")
          }
          if let existing = typeOwners[typeName2] {
            guard Set(existing.values) == Set(alternatives) else {
              throw CodegenError(
                "\(existing.owner) and \(place) both become the type \(typeName).\(typeName2), "
                  + "with other values")
            }
            let index = valueSets.firstIndex { $0.name == typeName2 }!
            if !valueSets[index].parameterNames.contains(parameter.name) {
              valueSets[index].parameterNames.append(parameter.name)
            }
          } else {
            typeOwners[typeName2] = (alternatives, place)
            valueSets.append(
              ValueSet(
                name: typeName2, alternatives: alternatives,
                cases: try Self.valueCases(alternatives, place: place),
                parameterNames: [parameter.name]))
          }
          made.swiftType = typeName2 + (parameter.isOptional ? "?" : "")
          made.conversion = "{ $0.stringValue.flatMap(\(typeName2).init(rawValue:)) }"
        }
        parameters.append(made)
      }
      cases.append(
        Case(
          destination: destination, name: SwiftNames.escaped(caseName), parameters: parameters))
    }
    valueSets.sort { $0.name < $1.name }
  }

  /// The kind (`screen`, `action`, `notification`) and name of a target.
  static func parts(_ target: RouteTarget) -> (kind: String, name: String) {
    switch target {
    case .screen(let name): return ("screen", name)
    case .action(let name): return ("action", name)
    case .notification(let name): return ("notification", name)
    case .redirect(let template): return ("redirect", template.text)
    }
  }

  /// `screen "order-detail"`.
  static func describe(_ target: RouteTarget) -> String {
    let (kind, name) = parts(target)
    return "\(kind) \(JSON.quote(name))"
  }

  private static func parameter(
    _ parameter: DestinationParameter, label: String, place: String
  ) throws(CodegenError) -> Parameter {
    let optional = parameter.isOptional ? "?" : ""
    let escaped = SwiftNames.escaped(label)
    switch parameter.type {
    case .int:
      return Parameter(
        parameter: parameter, label: escaped, swiftType: "Int" + optional,
        conversion: "\\.intValue", write: { ".int(Int64(\($0)))" })
    case .double:
      return Parameter(
        parameter: parameter, label: escaped, swiftType: "Double" + optional,
        conversion: "\\.doubleValue", write: { ".float(\($0))" })
    case .string:
      return Parameter(
        parameter: parameter, label: escaped, swiftType: "String" + optional,
        conversion: "\\.stringValue", write: { ".string(\($0))" })
    case .segments(let wildcard):
      return Parameter(
        parameter: parameter, label: escaped, swiftType: "[String]" + optional,
        conversion: "\\.segmentsValue",
        write: { wildcard ? ".strings(\($0))" : ".string(\($0).joined(separator: \"/\"))" })
    case .valueSet:
      return Parameter(
        parameter: parameter, label: escaped, swiftType: "", conversion: "",
        write: { ".string(\($0).rawValue)" })
    }
  }

  private static func valueCases(_ alternatives: [String], place: String)
    throws(CodegenError) -> [(name: String, raw: String)]
  {
    var owners: [String: String] = [:]
    var cases: [(name: String, raw: String)] = []
    for raw in alternatives {
      guard let name = SwiftNames.lowerCamelCase(raw) else {
        throw CodegenError("\(place): the value \(JSON.quote(raw)) has no Swift name")
      }
      if let other = owners[name] {
        throw CodegenError(
          "\(place): the values \(JSON.quote(other)) and \(JSON.quote(raw)) both become the "
            + "case \(name)")
      }
      if reservedValues.contains(name) {
        throw CodegenError(
          "\(place): the value \(JSON.quote(raw)) becomes the case \(name), which a String "
            + "enum has already")
      }
      owners[name] = raw
      cases.append((name, raw))
    }
    return cases
  }
}
