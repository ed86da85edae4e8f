import Testing

@testable import Links

/// Property lists, XML and binary (`bplist00`), as Info.plist and `.entitlements` files are.
@Suite struct PropertyListTests {
  /// `plistlib.dumps(..., fmt=FMT_BINARY)` of the Info.plist that `xmlInfoPlist` holds.
  static let binaryInfoPlist: [UInt8] = [
    0x62, 0x70, 0x6c, 0x69, 0x73, 0x74, 0x30, 0x30, 0xd7, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07,
    0x08, 0x09, 0x0a, 0x14, 0x15, 0x16, 0x17, 0x54, 0x42, 0x6c, 0x6f, 0x62, 0x5f, 0x10, 0x12, 0x43,
    0x46, 0x42, 0x75, 0x6e, 0x64, 0x6c, 0x65, 0x49, 0x64, 0x65, 0x6e, 0x74, 0x69, 0x66, 0x69, 0x65,
    0x72, 0x5f, 0x10, 0x10, 0x43, 0x46, 0x42, 0x75, 0x6e, 0x64, 0x6c, 0x65, 0x55, 0x52, 0x4c, 0x54,
    0x79, 0x70, 0x65, 0x73, 0x5f, 0x10, 0x0f, 0x43, 0x46, 0x42, 0x75, 0x6e, 0x64, 0x6c, 0x65, 0x56,
    0x65, 0x72, 0x73, 0x69, 0x6f, 0x6e, 0x5f, 0x10, 0x12, 0x4c, 0x53, 0x52, 0x65, 0x71, 0x75, 0x69,
    0x72, 0x65, 0x73, 0x49, 0x50, 0x68, 0x6f, 0x6e, 0x65, 0x4f, 0x53, 0x54, 0x4e, 0x61, 0x6d, 0x65,
    0x55, 0x52, 0x61, 0x74, 0x69, 0x6f, 0x44, 0x00, 0x01, 0x68, 0x69, 0x5f, 0x10, 0x10, 0x63, 0x6f,
    0x6d, 0x2e, 0x65, 0x78, 0x61, 0x6d, 0x70, 0x6c, 0x65, 0x2e, 0x73, 0x68, 0x6f, 0x70, 0xa2, 0x0b,
    0x11, 0xd2, 0x0c, 0x0d, 0x0e, 0x0f, 0x5f, 0x10, 0x0f, 0x43, 0x46, 0x42, 0x75, 0x6e, 0x64, 0x6c,
    0x65, 0x55, 0x52, 0x4c, 0x4e, 0x61, 0x6d, 0x65, 0x5f, 0x10, 0x12, 0x43, 0x46, 0x42, 0x75, 0x6e,
    0x64, 0x6c, 0x65, 0x55, 0x52, 0x4c, 0x53, 0x63, 0x68, 0x65, 0x6d, 0x65, 0x73, 0x54, 0x73, 0x68,
    0x6f, 0x70, 0xa2, 0x0e, 0x10, 0x58, 0x73, 0x68, 0x6f, 0x70, 0x2d, 0x64, 0x65, 0x76, 0xd1, 0x0d,
    0x12, 0xa1, 0x13, 0x55, 0x6d, 0x79, 0x61, 0x70, 0x70, 0x52, 0x31, 0x32, 0x09, 0x66, 0x00, 0x43,
    0x00, 0x61, 0x00, 0x66, 0x00, 0xe9, 0x00, 0x20, 0x26, 0x03, 0x23, 0x3f, 0xf8, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x08, 0x17, 0x1c, 0x31, 0x44, 0x56, 0x6b, 0x70, 0x76, 0x7b, 0x8e, 0x91, 0x96,
    0xa8, 0xbd, 0xc2, 0xc5, 0xce, 0xd1, 0xd3, 0xd9, 0xdc, 0xdd, 0xea, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x00, 0x01, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x18, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xf3,
  ]

  /// A binary `.entitlements` with two `applinks:` and one `webcredentials:` entry.
  static let binaryEntitlements: [UInt8] = [
    0x62, 0x70, 0x6c, 0x69, 0x73, 0x74, 0x30, 0x30, 0xd1, 0x01, 0x02, 0x5f, 0x10, 0x26, 0x63, 0x6f,
    0x6d, 0x2e, 0x61, 0x70, 0x70, 0x6c, 0x65, 0x2e, 0x64, 0x65, 0x76, 0x65, 0x6c, 0x6f, 0x70, 0x65,
    0x72, 0x2e, 0x61, 0x73, 0x73, 0x6f, 0x63, 0x69, 0x61, 0x74, 0x65, 0x64, 0x2d, 0x64, 0x6f, 0x6d,
    0x61, 0x69, 0x6e, 0x73, 0xa3, 0x03, 0x04, 0x05, 0x5f, 0x10, 0x19, 0x61, 0x70, 0x70, 0x6c, 0x69,
    0x6e, 0x6b, 0x73, 0x3a, 0x73, 0x68, 0x6f, 0x70, 0x2e, 0x65, 0x78, 0x61, 0x6d, 0x70, 0x6c, 0x65,
    0x2e, 0x63, 0x6f, 0x6d, 0x5f, 0x10, 0x1f, 0x77, 0x65, 0x62, 0x63, 0x72, 0x65, 0x64, 0x65, 0x6e,
    0x74, 0x69, 0x61, 0x6c, 0x73, 0x3a, 0x73, 0x68, 0x6f, 0x70, 0x2e, 0x65, 0x78, 0x61, 0x6d, 0x70,
    0x6c, 0x65, 0x2e, 0x63, 0x6f, 0x6d, 0x5f, 0x10, 0x16, 0x61, 0x70, 0x70, 0x6c, 0x69, 0x6e, 0x6b,
    0x73, 0x3a, 0x2a, 0x2e, 0x65, 0x78, 0x61, 0x6d, 0x70, 0x6c, 0x65, 0x2e, 0x6f, 0x72, 0x67, 0x08,
    0x0b, 0x34, 0x38, 0x54, 0x76, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x01, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x00, 0x06, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x00, 0x8f,
  ]

  static let xmlInfoPlist = """
    <?xml version="1.0" encoding="UTF-8"?>
    <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
    <plist version="1.0">
    <dict>
    	<key>Blob</key>
    	<data>
    	AAFoaQ==
    	</data>
    	<key>CFBundleIdentifier</key>
    	<string>com.example.shop</string>
    	<key>CFBundleURLTypes</key>
    	<array>
    		<dict>
    			<key>CFBundleURLName</key>
    			<string>shop</string>
    			<key>CFBundleURLSchemes</key>
    			<array>
    				<string>shop</string>
    				<string>shop-dev</string>
    			</array>
    		</dict>
    		<dict>
    			<key>CFBundleURLSchemes</key>
    			<array>
    				<string>myapp</string>
    			</array>
    		</dict>
    	</array>
    	<key>CFBundleVersion</key>
    	<string>12</string>
    	<key>LSRequiresIPhoneOS</key>
    	<true/>
    	<key>Name</key>
    	<string>Café ☃</string>
    	<key>Ratio</key>
    	<real>1.5</real>
    </dict>
    </plist>
    """

  static let expectedInfo = PropertyList.dictionary([
    "Blob": .data([0, 1, 104, 105]),
    "CFBundleIdentifier": .string("com.example.shop"),
    "CFBundleURLTypes": .array([
      .dictionary([
        "CFBundleURLName": .string("shop"),
        "CFBundleURLSchemes": .array([.string("shop"), .string("shop-dev")]),
      ]),
      .dictionary(["CFBundleURLSchemes": .array([.string("myapp")])]),
    ]),
    "CFBundleVersion": .string("12"),
    "LSRequiresIPhoneOS": .bool(true),
    "Name": .string("Caf\u{E9} \u{2603}"),
    "Ratio": .real(1.5),
  ])

  @Test func readsXML() throws {
    #expect(try PropertyList.read(Array(Self.xmlInfoPlist.utf8)) == Self.expectedInfo)
  }

  @Test func readsBinary() throws {
    #expect(try PropertyList.read(Self.binaryInfoPlist) == Self.expectedInfo)
  }

  @Test func schemesOfAnInfoPlist() throws {
    let schemes = try LinksDefinition.schemes(
      infoPlist: try PropertyList.read(Self.binaryInfoPlist))
    #expect(schemes == ["shop", "shop-dev", "myapp"])
  }

  @Test func applinksOfEntitlements() throws {
    let hosts = try LinksDefinition.domains(
      entitlements: try PropertyList.read(Self.binaryEntitlements))
    #expect(hosts == ["shop.example.com", "*.example.org"])
  }

  @Test func xmlDetails() throws {
    let text = """
      <?xml version="1.0"?>
      <!-- a comment -->
      <plist version="1.0"><dict>
        <key>a &amp; b</key><string>&lt;x&gt; &#65;&#x42;</string>
        <key>n</key><integer>-42</integer>
        <key>e</key><array/>
        <key>d</key><dict/>
        <key>f</key><false/>
        <key>s</key><string/>
      </dict></plist>
      """
    #expect(
      try PropertyList.read(Array(text.utf8))
        == .dictionary([
          "a & b": .string("<x> AB"), "n": .integer(-42), "e": .array([]), "d": .dictionary([:]),
          "f": .bool(false), "s": .string(""),
        ]))
  }

  func error(_ bytes: [UInt8]) -> String? {
    do {
      _ = try PropertyList.read(bytes)
      return nil
    } catch {
      return error.description
    }
  }

  @Test func malformedXMLSaysWhere() {
    #expect(
      error(Array("<plist>\n<dict>\n  <key>a</key>\n  <strng>x</strng>\n</dict></plist>".utf8))
        == "line 4, column 3: unknown element <strng>")
    #expect(
      error(Array("<plist><integer>x1</integer></plist>".utf8))
        == "line 1, column 8: <integer> \"x1\" is not an integer")
    #expect(
      error(Array("<plist><dict><key>a</key><true/><key>a</key><true/></dict></plist>".utf8))
        == "line 1, column 33: the key \"a\" is in this <dict> twice")
    #expect(error(Array("<plist><array><string>x</string>".utf8)) != nil)
    #expect(error(Array("not a plist".utf8)) != nil)
    #expect(error([]) != nil)
  }

  @Test func malformedBinarySaysWhat() {
    #expect(error(Array("bplist00".utf8)) == "binary property list: too short for its trailer")
    var truncated = Self.binaryInfoPlist
    truncated.removeLast(40)
    #expect(error(truncated) != nil)
    var badOffset = Self.binaryInfoPlist
    // The trailer's offset-table offset, pointing past the end.
    badOffset[badOffset.count - 1] = 0xFF
    #expect(error(badOffset) == "binary property list: the trailer is invalid")
    #expect(
      error(Array("bplist01".utf8) + [UInt8](repeating: 0, count: 40))
        == "binary property list: only version bplist00 is read")
  }

  /// A binary list of 100 arrays, each holding the next, is refused for its depth.
  @Test func deeplyNestedBinaryIsRefused() {
    let count = 100
    var bytes = Array("bplist00".utf8)
    var offsets: [Int] = []
    for index in 0..<count {
      offsets.append(bytes.count)
      // An array of one reference to the next object; the last is empty.
      bytes += index == count - 1 ? [0xA0] : [0xA1, UInt8(index + 1)]
    }
    let table = bytes.count
    for offset in offsets { bytes += [UInt8(offset >> 8), UInt8(offset & 0xFF)] }
    bytes += [0, 0, 0, 0, 0, 0, 2, 1]
    bytes += [0, 0, 0, 0, 0, 0, 0, UInt8(count)]
    bytes += [UInt8](repeating: 0, count: 8)
    bytes += [0, 0, 0, 0, 0, 0, UInt8(table >> 8), UInt8(table & 0xFF)]
    #expect(
      error(bytes)?.hasSuffix("nested more than 64 deep") == true, "\(error(bytes) ?? "read")")
  }

  /// Every prefix and every single-byte change of a binary list is read or refused, never a
  /// crash.
  @Test func damagedBinaryNeverCrashes() {
    for length in 0..<Self.binaryInfoPlist.count {
      _ = error(Array(Self.binaryInfoPlist.prefix(length)))
    }
    for index in Self.binaryInfoPlist.indices {
      for value: UInt8 in [0x00, 0x0F, 0x5F, 0xAF, 0xDF, 0xFF] {
        var bytes = Self.binaryInfoPlist
        bytes[index] = value
        _ = error(bytes)
      }
    }
  }

  @Test func wronglyTypedMembersAreNamed() throws {
    func schemesError(_ list: PropertyList) -> String? {
      do {
        _ = try LinksDefinition.schemes(infoPlist: list)
        return nil
      } catch { return error.description }
    }
    #expect(schemesError(.array([])) == "the top level must be a dictionary, not an array")
    #expect(
      schemesError(.dictionary(["CFBundleURLTypes": .string("x")]))
        == "CFBundleURLTypes: must be an array, not a string")
    #expect(
      schemesError(
        .dictionary([
          "CFBundleURLTypes": .array([.dictionary(["CFBundleURLSchemes": .array([.integer(1)])])])
        ]))
        == "CFBundleURLTypes[0].CFBundleURLSchemes[0]: must be a non-empty string")
    // Schemes are checked as app.json's are.
    func schemes(_ names: [String]) -> PropertyList {
      .dictionary([
        "CFBundleURLTypes": .array([
          .dictionary(["CFBundleURLSchemes": .array([.string("ok")])]),
          .dictionary(["CFBundleURLSchemes": .array(names.map { .string($0) })]),
        ])
      ])
    }
    #expect(
      schemesError(schemes(["shop", "\n  spaced\n"]))
        == #"CFBundleURLTypes[1].CFBundleURLSchemes[1]: "\n  spaced\n" is not a URL scheme"#)
    #expect(
      schemesError(schemes(["c<d"]))
        == #"CFBundleURLTypes[1].CFBundleURLSchemes[0]: "c<d" is not a URL scheme"#)
    #expect(
      schemesError(schemes(["HTTPS"]))
        == "CFBundleURLTypes[1].CFBundleURLSchemes[0]: http and https are not custom schemes")
    #expect(schemesError(schemes(["my-app.v2+x"])) == nil)
    func domainsError(_ list: PropertyList) -> String? {
      do {
        _ = try LinksDefinition.domains(entitlements: list)
        return nil
      } catch { return error.description }
    }
    let key = "com.apple.developer.associated-domains"
    #expect(
      domainsError(.dictionary([key: .string("applinks:a.com")]))
        == "\(key): must be an array, not a string")
    #expect(
      domainsError(.dictionary([key: .array([.string("applinks:a.com:8080")])]))
        == "\(key)[0]: \"applinks:a.com:8080\": a host has no port")
    #expect(
      domainsError(.dictionary([key: .array([.string("applinks:a.com/path")])]))
        == "\(key)[0]: \"applinks:a.com/path\": a host has no path")
  }
}
