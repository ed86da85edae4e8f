/// Reads a binary property list (`bplist00`): the 32-byte trailer gives the offset table, and
/// every object is read from its marker byte. Errors name the object and its offset; a list
/// that refers to itself is refused.
struct BinaryPropertyListReader {
  private let bytes: [UInt8]
  private var offsets: [Int] = []
  private var referenceSize = 0
  /// The deepest nesting read, as for XML.
  static let maxDepth = 64

  init(_ bytes: [UInt8]) { self.bytes = bytes }

  mutating func read() throws(PropertyListError) -> PropertyList {
    guard bytes.starts(with: Array("bplist00".utf8)) else {
      throw PropertyListError("binary property list: only version bplist00 is read")
    }
    guard bytes.count >= 8 + 32 + 1 else {
      throw PropertyListError("binary property list: too short for its trailer")
    }
    let trailer = bytes.count - 32
    let offsetSize = Int(bytes[trailer + 6])
    referenceSize = Int(bytes[trailer + 7])
    guard (1...8).contains(offsetSize), (1...8).contains(referenceSize),
      let objectCount = number(at: trailer + 8, size: 8),
      let top = number(at: trailer + 16, size: 8),
      let tableOffset = number(at: trailer + 24, size: 8),
      objectCount > 0, objectCount < bytes.count, top < objectCount,
      tableOffset >= 8, tableOffset + objectCount * offsetSize <= trailer
    else {
      throw PropertyListError("binary property list: the trailer is invalid")
    }
    offsets.reserveCapacity(objectCount)
    for object in 0..<objectCount {
      guard let offset = number(at: tableOffset + object * offsetSize, size: offsetSize),
        offset >= 8, offset < tableOffset
      else {
        throw PropertyListError("binary property list: object \(object): offset out of range")
      }
      offsets.append(offset)
    }
    var path: Set<Int> = []
    return try object(top, path: &path)
  }

  private func object(_ reference: Int, path: inout Set<Int>) throws(PropertyListError)
    -> PropertyList
  {
    guard reference < offsets.count else {
      throw PropertyListError(
        "binary property list: reference to object \(reference), of \(offsets.count)")
    }
    let offset = offsets[reference]
    func fail(_ message: String) -> PropertyListError {
      PropertyListError("binary property list: object \(reference) at offset \(offset): \(message)")
    }
    guard path.insert(reference).inserted else { throw fail("contains itself") }
    guard path.count <= Self.maxDepth else { throw fail("nested more than \(Self.maxDepth) deep") }
    defer { path.remove(reference) }
    let marker = bytes[offset]
    let low = Int(marker & 0x0F)
    switch marker >> 4 {
    case 0x0:
      switch marker {
      case 0x08: return .bool(false)
      case 0x09: return .bool(true)
      default: throw fail("unsupported marker 0x\(String(marker, radix: 16))")
      }
    case 0x1:
      let size = 1 << low
      guard size <= 8, let raw = unsigned(at: offset + 1, size: size) else {
        throw fail("integer out of range")
      }
      return .integer(size == 8 ? Int64(bitPattern: raw) : Int64(raw))
    case 0x2:
      guard low == 2 || low == 3, let raw = unsigned(at: offset + 1, size: 1 << low) else {
        throw fail("real out of range")
      }
      return .real(low == 2 ? Double(Float(bitPattern: UInt32(raw))) : Double(bitPattern: raw))
    case 0x3:
      guard marker == 0x33, let raw = unsigned(at: offset + 1, size: 8) else {
        throw fail("date out of range")
      }
      return .date(String(Double(bitPattern: raw)))
    case 0x4, 0x5, 0x6, 0xA, 0xD:
      guard let (count, start) = length(low, at: offset) else { throw fail("bad length") }
      switch marker >> 4 {
      case 0x4:
        guard start + count <= bytes.count else { throw fail("data runs past the end") }
        return .data(Array(bytes[start..<start + count]))
      case 0x5:
        guard start + count <= bytes.count else { throw fail("string runs past the end") }
        return .string(String(decoding: bytes[start..<start + count], as: UTF8.self))
      case 0x6:
        guard start + 2 * count <= bytes.count else { throw fail("string runs past the end") }
        let units = (0..<count).map {
          UInt16(bytes[start + 2 * $0]) << 8 | UInt16(bytes[start + 2 * $0 + 1])
        }
        return .string(String(decoding: units, as: UTF16.self))
      case 0xA:
        guard start + count * referenceSize <= bytes.count else {
          throw fail("array runs past the end")
        }
        var items: [PropertyList] = []
        for item in 0..<count {
          items.append(
            try object(
              number(at: start + item * referenceSize, size: referenceSize) ?? Int.max, path: &path)
          )
        }
        return .array(items)
      default:
        guard start + 2 * count * referenceSize <= bytes.count else {
          throw fail("dictionary runs past the end")
        }
        var members: [String: PropertyList] = [:]
        for member in 0..<count {
          let keyReference =
            number(at: start + member * referenceSize, size: referenceSize) ?? Int.max
          guard case .string(let key) = try object(keyReference, path: &path) else {
            throw fail("key \(member) is not a string")
          }
          let valueReference =
            number(
              at: start + (count + member) * referenceSize, size: referenceSize) ?? Int.max
          members[key] = try object(valueReference, path: &path)
        }
        return .dictionary(members)
      }
    default:
      throw fail("unsupported marker 0x\(String(marker, radix: 16))")
    }
  }

  /// The count of a data, string, array or dictionary object and where its contents start.
  private func length(_ low: Int, at offset: Int) -> (Int, Int)? {
    guard low == 0x0F else { return (low, offset + 1) }
    guard offset + 2 < bytes.count, bytes[offset + 1] >> 4 == 0x1 else { return nil }
    let size = 1 << Int(bytes[offset + 1] & 0x0F)
    guard size <= 8, let count = number(at: offset + 2, size: size), count < bytes.count else {
      return nil
    }
    return (count, offset + 2 + size)
  }

  private func unsigned(at offset: Int, size: Int) -> UInt64? {
    guard offset >= 0, offset + size <= bytes.count else { return nil }
    var value: UInt64 = 0
    for byte in bytes[offset..<offset + size] { value = value << 8 | UInt64(byte) }
    return value
  }

  /// A big-endian unsigned number that fits an Int.
  private func number(at offset: Int, size: Int) -> Int? {
    guard let value = unsigned(at: offset, size: size), value <= UInt64(Int.max) else {
      return nil
    }
    return Int(value)
  }
}
