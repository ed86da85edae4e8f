import Testing

@testable import Links

/// Who gets a URL from outside: the scheme, the associated domain, the AASA.
@Suite struct DeliveryTests {
  static func policy() throws -> LinkPolicy {
    let shop = try AASADocument(
      bytes: Array(
        """
        {"applinks":{"details":[{"appIDs":["ABCDE12345.com.example.shop"],"components":[
          {"/":"/admin/*","exclude":true},{"/":"/orders/*"}]}]}}
        """.utf8))
    return LinkPolicy(
      appID: "ABCDE12345.com.example.shop", schemes: ["Shop"],
      domains: ["shop.example.com", "*.example.org"],
      aasa: ["SHOP.example.com": ("aasa/shop.json", shop), "m.example.org": ("aasa/m.json", shop)])
  }

  @Test func customSchemes() throws {
    let policy = try Self.policy()
    #expect(policy.delivery(of: "shop://orders/1").opens == .app)
    #expect(policy.delivery(of: "SHOP://orders/1").opens == .app)
    let other = policy.delivery(of: "shop2://orders/1")
    #expect(other.opens == .nothing)
    #expect(other.reason == "no installed app opens shop2:")
    #expect(other.decidedBy == nil)
  }

  @Test func httpOpensSafari() throws {
    #expect(try Self.policy().delivery(of: "http://shop.example.com/orders/1").opens == .safari)
  }

  @Test func httpsThroughTheAASA() throws {
    let policy = try Self.policy()
    let admitted = policy.delivery(of: "https://Shop.Example.com:443/orders/1")
    #expect(admitted.opens == .app)
    #expect(admitted.decidedBy == "aasa/shop.json: applinks.details[0].components[1]")
    let excluded = policy.delivery(of: "https://shop.example.com/admin/x")
    #expect(excluded.opens == .safari)
    #expect(excluded.reason == "excluded by aasa/shop.json: applinks.details[0].components[0]")
    let unmatched = policy.delivery(of: "https://user@shop.example.com/help")
    #expect(unmatched.opens == .safari)
    #expect(unmatched.decidedBy == nil)
    #expect(
      unmatched.reason == "no component of aasa/shop.json admits it for ABCDE12345.com.example.shop"
    )
  }

  @Test func associatedDomainsAndWildcards() throws {
    let policy = try Self.policy()
    #expect(
      policy.delivery(of: "https://other.example.com/orders/1").reason
        == "no associated domain for other.example.com")
    // `*.example.org` covers subdomains, not the bare domain.
    #expect(
      policy.delivery(of: "https://example.org/orders/1").reason
        == "no associated domain for example.org")
    #expect(policy.delivery(of: "https://m.example.org/orders/1").opens == .app)
    #expect(
      policy.delivery(of: "https://x.example.org/orders/1").reason
        == "no AASA for x.example.org (associated domain applinks:*.example.org)")
  }

  @Test func unreadableURLsOpenNothing() throws {
    let policy = try Self.policy()
    #expect(policy.delivery(of: "orders/1").opens == .nothing)
    #expect(policy.delivery(of: "orders/1").reason == "cannot read the URL: no scheme")
    #expect(policy.delivery(of: "1shop://x").opens == .nothing)
    #expect(policy.delivery(of: "shop://orders/%zz").opens == .nothing)
    #expect(policy.delivery(of: "shop://orders/%zz").reason.hasPrefix("cannot read the URL: "))
  }

  /// A space or a control character is read as it stands, as the router reads it.
  @Test func spacesAndControlCharactersAreReadAsTheRouterReadsThem() throws {
    let policy = try Self.policy()
    #expect(policy.delivery(of: "shop://user/a b").opens == .app)
    #expect(policy.delivery(of: "shop://user/x?q=a b").opens == .app)
    #expect(policy.delivery(of: "shop://user/a\u{01}b").opens == .app)
    #expect(policy.delivery(of: "https://shop.example.com/orders/a b?q=c d").opens == .app)
    let url = try LinkURL("https://shop.example.com/a b?q=c d#e f")
    #expect(url.path == "/a b")
    #expect(url.query == "q=c d")
    #expect(url.fragment == "e f")
  }

  @Test func urlParts() throws {
    let url = try LinkURL("HTTPS://u:p@Host.COM:8443?a=1#f")
    #expect(url.scheme == "https")
    #expect(url.host == "host.com")
    #expect(url.path == "/")
    #expect(url.query == "a=1")
    #expect(url.fragment == "f")
  }

  @Test func applinksHostsFromAppJSON() throws {
    #expect(try LinksDefinition.applinksHost("applinks:Shop.example.com") == "shop.example.com")
    #expect(try LinksDefinition.applinksHost("applinks:*.example.org") == "*.example.org")
    #expect(
      try LinksDefinition.applinksHost("applinks:shop.example.com?mode=developer")
        == "shop.example.com")
    #expect(try LinksDefinition.applinksHost("webcredentials:shop.example.com") == nil)
    #expect(throws: LinkConfigError.self) { try LinksDefinition.applinksHost("applinks:") }
    #expect(throws: LinkConfigError.self) { try LinksDefinition.applinksHost("applinks:a.*.com") }
    #expect(throws: LinkConfigError.self) { try LinksDefinition.applinksHost("shop.example.com") }
  }
}
