import Routing
import Testing

@testable import Shell

private func screen(_ name: String, _ params: Parameters = [:]) -> Screen {
  Screen(name: name, title: name.uppercased(), params: params)
}

/// A plain three-tab state, built without any app.
private func threeTabs() -> ShellState {
  ShellState(tabs: [
    Tab(title: "Home", root: screen("home")),
    Tab(title: "Orders", root: screen("order-list")),
    Tab(title: "Me", root: screen("personal-center")),
  ])
}

private func names(_ stack: [Screen]) -> [String] { stack.map(\.name) }

/// The navigation state's own transitions, on plain values.
@Suite struct ShellStateTransitionTests {
  @Test func pushLandsOnTheSelectedTabsStack() {
    var state = threeTabs()
    state.push(screen("a"))
    #expect(names(state.tabs[0].stack) == ["home", "a"])
    #expect(names(state.tabs[1].stack) == ["order-list"])
    #expect(names(state.tabs[2].stack) == ["personal-center"])
    #expect(state.topScreen.name == "a")
  }

  @Test func pushWithAnotherTabSelectedLandsOnThatTab() {
    var state = threeTabs()
    state.selectTab(2)
    state.push(screen("a"))
    state.push(screen("b"))
    #expect(state.selectedTab == 2)
    #expect(names(state.tabs[0].stack) == ["home"])
    #expect(names(state.tabs[2].stack) == ["personal-center", "a", "b"])
    #expect(names(state.currentStack) == ["personal-center", "a", "b"])
  }

  @Test func pushWithAModalUpLandsOnTheTopModal() {
    var state = threeTabs()
    state.push(screen("under"))
    state.present(screen("m1"))
    state.present(screen("m2"))
    state.push(screen("x"))
    #expect(names(state.tabs[0].stack) == ["home", "under"])
    #expect(state.modals.map { names($0.stack) } == [["m1"], ["m2", "x"]])
    #expect(state.topScreen.name == "x")
  }

  @Test func poppingARootIsANoOp() {
    var state = threeTabs()
    let before = state
    let popped = state.pop()
    #expect(popped == false)
    #expect(state == before)
    state.present(screen("m"))
    let withModal = state
    let popped2 = state.pop()
    #expect(popped2 == false)
    #expect(state == withModal)
  }

  @Test func popRemovesOnlyTheTopOfTheCurrentStack() {
    var state = threeTabs()
    state.push(screen("a"))
    state.present(screen("m"))
    state.push(screen("x"))
    let popped = state.pop()
    #expect(popped)
    #expect(state.modals.map { names($0.stack) } == [["m"]])
    #expect(names(state.tabs[0].stack) == ["home", "a"])
  }

  @Test func dismissWithNoModalIsANoOp() {
    var state = threeTabs()
    state.push(screen("a"))
    let before = state
    let dismissed = state.dismiss()
    #expect(dismissed == false)
    #expect(state == before)
  }

  @Test func dismissRemovesTheWholeTopModal() {
    var state = threeTabs()
    state.present(screen("m1"))
    state.present(screen("m2"))
    state.push(screen("x"))
    let dismissed = state.dismiss()
    #expect(dismissed)
    #expect(state.modals.map { names($0.stack) } == [["m1"]])
  }

  @Test func backDismissesAModalWithOnlyItsRoot() {
    var state = threeTabs()
    state.push(screen("a"))
    state.present(screen("m"))
    state.push(screen("x"))
    let wentBack = state.back()
    #expect(wentBack)
    #expect(state.modals.map { names($0.stack) } == [["m"]])
    let wentBack2 = state.back()
    #expect(wentBack2)
    #expect(state.modals.isEmpty)
    #expect(names(state.tabs[0].stack) == ["home", "a"])
    let wentBack3 = state.back()
    #expect(wentBack3)
    #expect(names(state.tabs[0].stack) == ["home"])
    let atRoot = state
    let wentBack4 = state.back()
    #expect(wentBack4 == false)
    #expect(state == atRoot)
  }

  @Test func popToRootEmptiesTheCurrentStackDownToItsRootOnly() {
    var state = threeTabs()
    state.push(screen("a"))
    state.push(screen("b"))
    state.selectTab(1)
    state.push(screen("c"))
    state.push(screen("d"))
    state.popToRoot()
    #expect(names(state.tabs[1].stack) == ["order-list"])
    #expect(names(state.tabs[0].stack) == ["home", "a", "b"])
    state.present(screen("m"))
    state.push(screen("y"))
    state.popToRoot()
    #expect(state.modals.map { names($0.stack) } == [["m"]])
    state.popToRoot()
    #expect(state.modals.count == 1)
  }

  @Test(arguments: [-1, 3, 4, Int.max, Int.min])
  func selectTabOutOfRangeIsIgnored(index: Int) {
    var state = threeTabs()
    state.selectTab(1)
    let before = state
    state.selectTab(index)
    #expect(state == before)
  }

  @Test func showingAnAlertReplacesTheOneShown() {
    var state = threeTabs()
    state.showAlert(Alert(title: "One", message: "1"))
    state.showAlert(Alert(title: "Two", message: "2"))
    #expect(state.alert == Alert(title: "Two", message: "2"))
    state.dismissAlert()
    #expect(state.alert == nil)
  }

  @Test func replaceTopReplacesOnlyTheTopOfTheCurrentStack() {
    var state = threeTabs()
    state.push(screen("a"))
    state.replaceTop(screen("b"))
    #expect(names(state.tabs[0].stack) == ["home", "b"])
    state.present(screen("m"))
    state.replaceTop(screen("n"))
    #expect(state.modals.map { names($0.stack) } == [["n"]])
    #expect(names(state.tabs[0].stack) == ["home", "b"])
  }

  @Test func fullInitializerRefusesBrokenStates() {
    let tab = Tab(title: "T", root: screen("t"))
    #expect(ShellState(tabs: [tab], selectedTab: 1, modals: [], alert: nil) == nil)
    #expect(ShellState(tabs: [tab], selectedTab: -1, modals: [], alert: nil) == nil)
    #expect(
      ShellState(tabs: [Tab(title: "T", stack: [])], selectedTab: 0, modals: [], alert: nil)
        == nil)
    #expect(ShellState(tabs: [tab], selectedTab: 0, modals: [Modal(stack: [])], alert: nil) == nil)
    #expect(ShellState(tabs: [], selectedTab: 0, modals: [], alert: nil) == nil)
    let ok = ShellState(tabs: [tab], selectedTab: 0, modals: [Modal(root: screen("m"))], alert: nil)
    #expect(ok?.topScreen.name == "m")
  }
}

/// The same transitions through the reducer: events from the front end.
@Suite struct ReducerTransitionTests {
  @Test func initialModelHasTheThreeTabsOfTheContract() {
    let harness = Harness()
    #expect(harness.state.tabs.map(\.title) == ["Home", "Orders", "Me"])
    #expect(
      harness.state.tabs.map { $0.stack.map(\.name) } == [
        ["home"], ["order-list"], ["personal-center"],
      ])
    #expect(harness.state.selectedTab == 0)
    #expect(harness.state.modals.isEmpty)
    #expect(harness.state.alert == nil)
    #expect(harness.model.log.isEmpty)
  }

  @Test func pushGoesToTheSelectedTab() {
    var harness = Harness()
    harness.send(.tabSelected(2))
    harness.open("myapp://orders/7")
    #expect(harness.names(tab: 2) == ["personal-center", "order-detail"])
    #expect(harness.names(tab: 0) == ["home"])
    #expect(harness.names(tab: 1) == ["order-list"])
    harness.send(.tabSelected(1))
    harness.open("myapp://settings")
    #expect(harness.names(tab: 1) == ["order-list", "settings"])
    #expect(harness.names(tab: 2) == ["personal-center", "order-detail"])
  }

  @Test func pushGoesToTheTopModalWhenOneIsUp() {
    var harness = Harness()
    harness.open("myapp://settings")
    harness.open("myapp://modal/user/ann")
    harness.open("myapp://orders/7")
    #expect(harness.names(tab: 0) == ["home", "settings"])
    #expect(harness.modalNames == [["user-profile", "order-detail"]])
    harness.open("myapp://modal/user/bob")
    harness.open("myapp://about")
    #expect(harness.modalNames == [["user-profile", "order-detail"], ["user-profile", "about"]])
    #expect(harness.names(tab: 0) == ["home", "settings"])
  }

  @Test func backPopsThenDismissesThenStopsAtTheRoot() {
    var harness = Harness()
    harness.open("myapp://settings")
    harness.open("myapp://modal/user/ann")
    harness.open("myapp://about")
    harness.send(.backRequested)
    #expect(harness.modalNames == [["user-profile"]])
    harness.send(.backRequested)
    #expect(harness.modalNames.isEmpty)
    #expect(harness.names(tab: 0) == ["home", "settings"])
    harness.send(.backRequested)
    #expect(harness.names(tab: 0) == ["home"])
    let atRoot = harness.state
    for _ in 0..<3 { harness.send(.backRequested) }
    #expect(harness.state == atRoot)
  }

  @Test func backOnAnotherTabPopsOnlyThatTab() {
    var harness = Harness()
    harness.open("myapp://settings")
    harness.send(.tabSelected(1))
    harness.open("myapp://orders/3")
    harness.send(.backRequested)
    #expect(harness.names(tab: 1) == ["order-list"])
    #expect(harness.names(tab: 0) == ["home", "settings"])
    harness.send(.backRequested)
    #expect(harness.names(tab: 1) == ["order-list"])
    #expect(harness.names(tab: 0) == ["home", "settings"])
  }

  @Test func eachTabKeepsItsStackAcrossSwitches() {
    var harness = Harness()
    harness.open("myapp://orders/1")
    harness.send(.tabSelected(1))
    harness.open("myapp://orders/2")
    harness.send(.tabSelected(0))
    #expect(harness.state.topScreen.params == ["orderid": .int(1)])
    harness.send(.tabSelected(1))
    #expect(harness.state.topScreen.params == ["orderid": .int(2)])
  }

  @Test(arguments: [-1, 3, 99])
  func tabSelectedOutOfRangeIsIgnored(index: Int) {
    var harness = Harness()
    harness.send(.tabSelected(1))
    let before = harness.state
    harness.send(.tabSelected(index))
    #expect(harness.state == before)
  }

  @Test func tabSwitchWithAModalUpIsRefusedAndTheStatusSaysSo() {
    var harness = Harness()
    harness.open("myapp://modal/user/ann")
    let before = harness.state
    harness.send(.tabSelected(1))
    #expect(harness.state == before)
    #expect(harness.state.selectedTab == 0)
    #expect(harness.model.status.lowercased().contains("modal"))
  }

  @Test func oneAlertAtATimeAndBackDismissesItFirst() {
    var harness = Harness()
    harness.open("myapp://settings")
    harness.open("myapp://nowhere")
    harness.open("myapp://also/nowhere")
    #expect(harness.state.alert?.title == "No route")
    #expect(harness.state.alert?.message.contains("myapp://also/nowhere") == true)
    harness.send(.backRequested)
    #expect(harness.state.alert == nil)
    #expect(harness.names(tab: 0) == ["home", "settings"])
    harness.send(.backRequested)
    #expect(harness.names(tab: 0) == ["home"])
  }

  @Test func backDismissesTheAlertBeforeTheModal() {
    var harness = Harness()
    harness.open("myapp://modal/user/ann")
    harness.open("myapp://nowhere")
    harness.send(.backRequested)
    #expect(harness.state.alert == nil)
    #expect(harness.modalNames == [["user-profile"]])
  }

  @Test func alertDismissedEventClearsOnlyTheAlert() {
    var harness = Harness()
    harness.open("myapp://orders/5")
    let before = harness.state
    harness.open("myapp://nowhere")
    #expect(harness.state.alert != nil)
    harness.send(.alertDismissed)
    #expect(harness.state == before)
  }

  @Test func linkIndexOutOfRangeDoesNothing() {
    var harness = Harness()
    let before = harness.model
    harness.send(.linkFollowed(5))
    harness.send(.linkFollowed(-1))
    #expect(harness.model == before)
  }
}
