/// The URL prompt: a one-line editor with readline keys and a history of opened URLs.
package struct Prompt: Sendable, Hashable {
  /// The text, as characters.
  package private(set) var characters: [Character] = []
  /// The cursor, an index into `characters` (0...count).
  package private(set) var cursor = 0
  /// URLs opened from the prompt, oldest first.
  package private(set) var history: [String] = []
  /// Where history browsing is (nil: editing a new line).
  private var historyIndex: Int?
  /// The line being edited before history browsing started.
  private var draft: [Character] = []

  /// The most URLs the history keeps.
  package static let historyLimit = 500

  /// Makes an empty prompt.
  package init() {}

  /// The text.
  package var text: String { String(characters) }

  /// Whether the prompt holds no text.
  package var isEmpty: Bool { characters.isEmpty }

  /// Replaces the text and puts the cursor at its end.
  package mutating func setText(_ text: String) {
    characters = Array(text)
    cursor = characters.count
  }

  /// Inserts a character at the cursor; one that joins the character before it (a combining
  /// mark typed alone) becomes part of that character.
  package mutating func insert(_ character: Character) {
    if cursor > 0 {
      let joined = String(characters[cursor - 1]) + String(character)
      if joined.count == 1 {
        characters[cursor - 1] = Character(joined)
        historyIndex = nil
        return
      }
    }
    characters.insert(character, at: cursor)
    cursor += 1
    historyIndex = nil
  }

  /// Deletes the character before the cursor (Backspace).
  package mutating func deleteBackward() {
    guard cursor > 0 else { return }
    characters.remove(at: cursor - 1)
    cursor -= 1
  }

  /// Deletes the character under the cursor (Delete).
  package mutating func deleteForward() {
    guard cursor < characters.count else { return }
    characters.remove(at: cursor)
  }

  /// Moves the cursor one character left.
  package mutating func moveLeft() { cursor = max(0, cursor - 1) }
  /// Moves the cursor one character right.
  package mutating func moveRight() { cursor = min(characters.count, cursor + 1) }
  /// Moves the cursor to the start (Home, Ctrl-A).
  package mutating func moveToStart() { cursor = 0 }
  /// Moves the cursor to the end (End, Ctrl-E).
  package mutating func moveToEnd() { cursor = characters.count }

  /// Deletes from the start to the cursor (Ctrl-U).
  package mutating func killToStart() {
    characters.removeSubrange(0..<cursor)
    cursor = 0
  }

  /// Deletes from the cursor to the end (Ctrl-K).
  package mutating func killToEnd() {
    characters.removeSubrange(cursor...)
  }

  /// Deletes the word before the cursor, and the spaces after it (Ctrl-W).
  package mutating func deleteWordBackward() {
    var start = cursor
    while start > 0, characters[start - 1] == " " { start -= 1 }
    while start > 0, characters[start - 1] != " " { start -= 1 }
    characters.removeSubrange(start..<cursor)
    cursor = start
  }

  /// Empties the prompt and stops history browsing.
  package mutating func clear() {
    characters = []
    cursor = 0
    historyIndex = nil
  }

  /// Empties the prompt and records `url` in the history (no repeat of the last one).
  package mutating func submit() -> String {
    let url = text
    if !url.isEmpty && history.last != url {
      history.append(url)
      if history.count > Self.historyLimit { history.removeFirst() }
    }
    clear()
    return url
  }

  /// Shows the previous URL of the history (Ctrl-P, Up).
  package mutating func historyPrevious() {
    guard !history.isEmpty else { return }
    if let index = historyIndex {
      guard index > 0 else { return }
      historyIndex = index - 1
    } else {
      draft = characters
      historyIndex = history.count - 1
    }
    setText(history[historyIndex!])
  }

  /// Shows the next URL of the history, then the line being edited (Ctrl-N, Down).
  package mutating func historyNext() {
    guard let index = historyIndex else { return }
    if index + 1 < history.count {
      historyIndex = index + 1
      setText(history[index + 1])
    } else {
      historyIndex = nil
      characters = draft
      cursor = characters.count
    }
  }
}
