import Testing

@testable import Interface

// The URL prompt: a one-line editor with readline keys and a history of opened URLs.

/// A prompt holding `text` with the cursor at `cursor` (default: the end).
private func prompt(_ text: String, cursor: Int? = nil) -> Prompt {
  var prompt = Prompt()
  for character in text { prompt.insert(character) }
  if let cursor {
    prompt.moveToStart()
    for _ in 0..<cursor { prompt.moveRight() }
  }
  return prompt
}

/// A prompt whose history holds `urls`, oldest first.
private func prompt(history urls: [String]) -> Prompt {
  var prompt = Prompt()
  for url in urls {
    prompt.setText(url)
    _ = prompt.submit()
  }
  return prompt
}

@Suite struct PromptTests {
  // MARK: Editing

  @Test func typingInsertsAtTheCursor() {
    var edited = prompt("ac", cursor: 1)
    edited.insert("b")
    #expect(edited.text == "abc")
    #expect(edited.cursor == 2)
    #expect(!edited.isEmpty)
    #expect(Prompt().isEmpty)
  }

  @Test func backspaceDeletesBeforeTheCursor() {
    var edited = prompt("abc", cursor: 2)
    edited.deleteBackward()
    #expect(edited.text == "ac")
    #expect(edited.cursor == 1)
    var start = prompt("abc", cursor: 0)
    start.deleteBackward()
    #expect(start.text == "abc")
    #expect(start.cursor == 0)
  }

  @Test func deleteDeletesUnderTheCursor() {
    var edited = prompt("abc", cursor: 1)
    edited.deleteForward()
    #expect(edited.text == "ac")
    #expect(edited.cursor == 1)
    var end = prompt("abc")
    end.deleteForward()
    #expect(end.text == "abc")
    #expect(end.cursor == 3)
  }

  @Test func leftAndRightStopAtTheEnds() {
    var edited = prompt("ab")
    edited.moveRight()
    #expect(edited.cursor == 2)
    edited.moveLeft()
    edited.moveLeft()
    edited.moveLeft()
    #expect(edited.cursor == 0)
    edited.moveRight()
    #expect(edited.cursor == 1)
  }

  @Test func homeAndEnd() {
    var edited = prompt("hello", cursor: 2)
    edited.moveToStart()
    #expect(edited.cursor == 0)
    edited.moveToEnd()
    #expect(edited.cursor == 5)
  }

  @Test func killToStartDeletesBeforeTheCursor() {
    var edited = prompt("myapp://orders", cursor: 8)
    edited.killToStart()
    #expect(edited.text == "orders")
    #expect(edited.cursor == 0)
  }

  @Test func killToEndDeletesFromTheCursor() {
    var edited = prompt("myapp://orders", cursor: 8)
    edited.killToEnd()
    #expect(edited.text == "myapp://")
    #expect(edited.cursor == 8)
  }

  @Test(arguments: [
    ("open myapp://x", 14, "open ", 5),
    ("open myapp://x  ", 16, "open ", 5),
    ("one two three", 7, "one  three", 4),
    ("word", 4, "", 0),
    ("word", 0, "word", 0),
    ("   ", 3, "", 0),
    ("a b", 2, "b", 0),
  ])
  func deleteWordBackward(text: String, cursor: Int, result: String, after: Int) {
    var edited = prompt(text, cursor: cursor)
    edited.deleteWordBackward()
    #expect(edited.text == result)
    #expect(edited.cursor == after)
  }

  @Test func wideAndCombinedCharactersAreOneStep() {
    var edited = prompt("a张é😀")
    #expect(edited.characters.count == 4)
    edited.deleteBackward()
    #expect(edited.text == "a张é")
    edited.moveLeft()
    edited.deleteBackward()
    #expect(edited.text == "aé")
  }

  @Test func setTextPutsTheCursorAtTheEnd() {
    var edited = prompt("xyz", cursor: 0)
    edited.setText("myapp://home")
    #expect(edited.text == "myapp://home")
    #expect(edited.cursor == 12)
  }

  @Test func clearEmpties() {
    var edited = prompt("abc", cursor: 1)
    edited.clear()
    #expect(edited.isEmpty)
    #expect(edited.cursor == 0)
  }

  // MARK: History

  @Test func submitEmptiesAndRecords() {
    var edited = prompt("myapp://home")
    #expect(edited.submit() == "myapp://home")
    #expect(edited.isEmpty)
    #expect(edited.cursor == 0)
    #expect(edited.history == ["myapp://home"])
  }

  @Test func submitSkipsEmptyLinesAndRepeats() {
    var edited = prompt(history: ["a", "a", "b", "a"])
    #expect(edited.submit() == "")
    #expect(edited.history == ["a", "b", "a"])
  }

  @Test func historyKeepsTheNewestFiveHundred() {
    var edited = prompt(history: (0..<(Prompt.historyLimit + 20)).map { "u\($0)" })
    #expect(edited.history.count == Prompt.historyLimit)
    #expect(edited.history.first == "u20")
    #expect(edited.history.last == "u519")
    edited.historyPrevious()
    #expect(edited.text == "u519")
  }

  @Test func previousWalksBackAndStopsAtTheOldest() {
    var edited = prompt(history: ["a", "b", "c"])
    edited.historyPrevious()
    #expect(edited.text == "c")
    edited.historyPrevious()
    #expect(edited.text == "b")
    edited.historyPrevious()
    edited.historyPrevious()
    #expect(edited.text == "a")
    #expect(edited.cursor == 1)
  }

  @Test func nextWalksForwardThenBackToTheDraft() {
    var edited = prompt(history: ["a", "b"])
    edited.insert("x")
    edited.historyPrevious()
    edited.historyPrevious()
    #expect(edited.text == "a")
    edited.historyNext()
    #expect(edited.text == "b")
    edited.historyNext()
    #expect(edited.text == "x")
    #expect(edited.cursor == 1)
    edited.historyNext()
    #expect(edited.text == "x")
  }

  @Test func withNoHistoryPreviousAndNextChangeNothing() {
    var edited = prompt("draft")
    edited.historyPrevious()
    #expect(edited.text == "draft")
    edited.historyNext()
    #expect(edited.text == "draft")
  }

  @Test func typingStopsHistoryBrowsing() {
    var edited = prompt(history: ["a", "b"])
    edited.historyPrevious()
    edited.insert("!")
    #expect(edited.text == "b!")
    edited.historyPrevious()
    #expect(edited.text == "b")
    edited.historyNext()
    #expect(edited.text == "b!")
  }
}
