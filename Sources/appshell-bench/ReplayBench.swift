import Interface
import Render
import Replay
import Routing
import Shell

/// A long key script that navigates (links, back, tabs), types URLs and opens them, in the
/// shipped app; every key is followed by an 80x24 frame, as the real app draws.
enum ReplayBench {
  static let urls = [
    "navigateApp://action?navigationKey=orderdetail&orderid=2015032688",
    "navigator://user/zhangsan", "myapp://orders/42", "XYWAPP://pkdetail/open?pkID=7",
    "myapp://settings", "myapp://nowhere/at/all", "navigator://modal/user/lisi",
  ]

  /// The keys of the script: `count` of them, fixed by `seed`.
  static func keys(count: Int, seed: UInt64) -> [Key] {
    var rng = SplitMix64(state: seed)
    var keys: [Key] = []
    while keys.count < count {
      switch rng.below(10) {
      case 0, 1, 2:
        for character in urls[rng.below(urls.count)] { keys.append(.character(character)) }
        keys.append(.enter)
      case 3: keys += [.down, .down, .enter]
      case 4: keys.append(.tab)
      case 5: keys.append(.backTab)
      case 6: keys += [.escape, .escape]
      case 7: keys += [.function(2), .function(2)]
      case 8: keys.append(.up)
      default: keys.append(.escape)
      }
    }
    return Array(keys.prefix(count))
  }

  /// Keys per second over the script, rendering after every key.
  static func run(app: ShellApp, keys: [Key]) -> (keysPerSecond: Double, frames: Int) {
    var replayer = Replayer(console: Console(app: app, size: Size(columns: 80, rows: 24)))
    var frames = 0
    let start = now()
    for key in keys {
      replayer.press(key)
      let snapshot = replayer.snapshot()
      frames &+= snapshot.grid.width
    }
    let seconds = Double(now() - start) / 1e9
    return (Double(keys.count) / seconds, frames)
  }
}
