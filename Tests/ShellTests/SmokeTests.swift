import Routing
import Testing

@testable import Shell

@Suite struct SmokeTests {
  @Test func pushesOrderDetailOnCurrentTab() {
    let app = Fixtures.app()
    var model = app.initialModel()
    _ = app.reduce(&model, .urlOpened("myapp://orders/42", origin: .prompt))
    #expect(model.shell.tabs[0].stack.map(\.name) == ["home", "order-detail"])
    #expect(model.shell.topScreen.title == "Order 42")
    #expect(model.shell.topScreen.params == ["orderid": .int(42)])
    #expect(model.log.last?.outcome == .pushed("order-detail"))
  }
}
