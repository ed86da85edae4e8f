import Foundation
import JSON
import Routing
import TestSupport
import Testing

@testable import AppShellCLI

/// `appshell resolve` reading URLs from standard input.
@Suite struct ResolveStdinTests {

  @Test func readsURLsFromStandardInputOneALine() throws {
    let streamed = runStdin([streamInput])
    let expected = CapturedRun.run(["resolve"] + streamURLs)
    #expect(streamed.status == 1)
    try #require(streamed.lines.count == streamURLs.count)
    #expect(streamed.stdout == expected.stdout)
    #expect(streamed.lines.first?.hasPrefix(#"{"url":"myapp://home","matched":true"#) == true)
    #expect(streamed.lines[2] == #"{"url":"","matched":false}"#)
    #expect(streamed.lines.last == #"{"url":"nope","matched":false}"#)
    #expect(
      try parseLine(streamed.lines[1])["params"]
        == .object([JSONMember("username", .string("张三"))]))
  }

  @Test func answersTheSameWhereverTheInputIsCut() {
    let expected = CapturedRun.run(["resolve"] + streamURLs).stdout
    for cut in 0...streamInput.count {
      let chunks = [Array(streamInput[..<cut]), Array(streamInput[cut...])]
      let result = runStdin(chunks)
      #expect(result.stdout == expected, "cut at byte \(cut)")
      #expect(result.status == 1)
    }
    for first in stride(from: 1, to: streamInput.count, by: 3) {
      for second in stride(from: first, to: streamInput.count, by: 5) {
        let chunks = [
          Array(streamInput[..<first]), [], Array(streamInput[first..<second]),
          Array(streamInput[second...]),
        ]
        #expect(runStdin(chunks).stdout == expected, "cut at bytes \(first) and \(second)")
      }
    }
    let bytewise = runStdin(streamInput.map { [$0] })
    #expect(bytewise.stdout == expected)
  }

  @Test func cutsInsideAMultiByteCharacterAndACarriageReturnPair() throws {
    let text = Array("navigator://user/张三\r\nmyapp://user/é".utf8)
    let zhang = try #require(text.firstIndex(of: 0xE5))
    let crlf = try #require(text.firstIndex(of: 0x0D))
    let eacute = try #require(text.firstIndex(of: 0xC3))
    let chunks = [
      Array(text[..<(zhang + 1)]), Array(text[(zhang + 1)..<(zhang + 2)]),
      Array(text[(zhang + 2)...crlf]), Array(text[(crlf + 1)...eacute]),
      Array(text[(eacute + 1)...]),
    ]
    let result = runStdin(chunks)
    #expect(result.status == 0)
    #expect(result.lines.count == 2)
    let first = try parseLine(try #require(result.lines.first))
    #expect(first["url"] == .string("navigator://user/张三"))
    #expect(first["params"] == .object([JSONMember("username", .string("张三"))]))
    let second = try parseLine(try #require(result.lines.last))
    #expect(second["url"] == .string("myapp://user/é"))
  }

  @Test func treatsEmptyLinesAsEmptyURLs() {
    let result = runStdin([Array("\n\r\n\n".utf8)])
    #expect(result.status == 1)
    #expect(result.lines == Array(repeating: #"{"url":"","matched":false}"#, count: 3))
  }

  @Test func aFinalNewlineDoesNotAddAnEmptyURL() {
    let result = runStdin([Array("myapp://home\n".utf8)])
    #expect(result.status == 0)
    #expect(result.lines.count == 1)
    let twice = runStdin([Array("myapp://home\n\n".utf8)])
    #expect(twice.status == 1)
    #expect(twice.lines.count == 2)
    #expect(twice.lines.last == #"{"url":"","matched":false}"#)
  }

  @Test func theLastLineWithoutANewlineCounts() {
    let result = runStdin([Array("myapp://home\nmyapp:".utf8), Array("//me".utf8)])
    #expect(result.status == 0)
    #expect(result.lines.count == 2)
    #expect(result.lines.last?.hasPrefix(#"{"url":"myapp://me","matched":true"#) == true)
  }

  @Test func keepsACarriageReturnThatDoesNotEndALine() throws {
    let result = runStdin([Array("a\rb\r\r\n".utf8)])
    let answer = try parseLine(try #require(result.lines.first))
    #expect(answer["url"] == .string("a\rb\r"))
    #expect(result.lines.count == 1)
  }

  @Test func writesInvalidUTF8AsReplacementCharacters() throws {
    let lines: [[UInt8]] = [
      Array("navigator://user/".utf8) + [0xFF, 0xFE],
      Array("myapp://user/".utf8) + [0xE5, 0xBC],
      Array("myapp://user/a".utf8) + [0xC0, 0xAF] + Array("b".utf8),
      Array("myapp://home#".utf8) + [0xFF],
    ]
    let chunks = lines.map { $0 + [0x0A] }
    let result = runStdin(chunks)
    #expect(result.status == 1)
    let output = result.output
    #expect(String(decoding: output, as: UTF8.self).utf8.elementsEqual(output), "valid UTF-8")
    try #require(result.lines.count == 4)
    let prefixes = ["navigator://user/", "myapp://user/", "myapp://user/a"]
    for (line, prefix) in zip(result.lines, prefixes) {
      let answer = try parseLine(line)
      guard case .string(let url)? = answer["url"] else {
        Issue.record("no url: \(line)")
        continue
      }
      #expect(url.hasPrefix(prefix))
      let rest = url.dropFirst(prefix.count).filter { $0 != "b" }
      #expect(!rest.isEmpty && rest.allSatisfy { $0 == "\u{FFFD}" }, "\(url.debugDescription)")
      #expect(answer["matched"] == .bool(false))
      guard case .string(let why)? = answer["error"] else {
        Issue.record("expected an error: \(line)")
        continue
      }
      #expect(why.contains("UTF-8"))
    }
    // The shipped table has fragment patterns, so the fragment is read and its bytes checked;
    // `url` still shows U+FFFD. (A table without fragment patterns drops the fragment unread:
    // URLReadingTests.)
    let fragment = try parseLine(result.lines[3])
    #expect(fragment["url"] == .string("myapp://home#\u{FFFD}"))
    #expect(fragment["matched"] == .bool(false))
    #expect(fragment["error"] == .string("invalid UTF-8 in fragment"))
  }

  @Test func answersEachLineBeforeReadingMore() throws {
    let result = runStdin([
      Array("myapp://home\nmyapp:".utf8), Array("//me\nmyapp://about\n".utf8), Array("tail".utf8),
    ])
    let home = CapturedRun.run(["resolve", "myapp://home"]).stdout
    let me = CapturedRun.run(["resolve", "myapp://me"]).stdout
    let about = CapturedRun.run(["resolve", "myapp://about"]).stdout
    let tail = CapturedRun.run(["resolve", "tail"]).stdout
    #expect(result.outputAtRead.count >= 4)
    #expect(result.outputAtRead.first == "")
    #expect(result.outputAtRead.dropFirst().first == home)
    #expect(result.outputAtRead.dropFirst(2).first == home + me + about)
    #expect(result.stdout == home + me + about + tail)
    #expect(result.status == 1)
  }

  @Test func readsNothingElseWhenStandardInputIsEmpty() {
    let result = runStdin([])
    #expect(result.status == 0)
    #expect(result.stdout.isEmpty)
    #expect(result.stderr.isEmpty)
    #expect(result.outputAtRead.count == 1)
  }

  @Test func readsStandardInputWhenOnlyOptionsAreGiven() throws {
    let result = runStdin(
      [Array("myapp://debug/reset\nmyapp://home\n".utf8)], arguments: ["--external"])
    #expect(result.status == 1)
    try #require(result.lines.count == 2)
    #expect(try parseLine(result.lines[0])["refused"] != nil)
    #expect(try parseLine(result.lines[1])["matched"] == .bool(true))
  }
}
