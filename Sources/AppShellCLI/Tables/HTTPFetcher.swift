import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Downloads a file over HTTP or HTTPS, waiting for it (start-up and reloads need the answer
/// before they go on).
enum HTTPFetcher {
  /// How long a download may take.
  static let timeout: TimeInterval = 10

  /// The body of a `200` response to a GET of `url`; otherwise a message saying what failed.
  static func fetch(_ url: URL) -> Result<[UInt8], FetchError> {
    let configuration = URLSessionConfiguration.ephemeral
    configuration.timeoutIntervalForRequest = timeout
    configuration.timeoutIntervalForResource = timeout
    configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
    let session = URLSession(configuration: configuration)
    defer { session.finishTasksAndInvalidate() }
    let outcome = Outcome()
    let done = DispatchSemaphore(value: 0)
    let task = session.dataTask(with: url) { data, response, error in
      if let error {
        outcome.set(.failure(FetchError("\(url.absoluteString): \(error.localizedDescription)")))
      } else if let http = response as? HTTPURLResponse, http.statusCode != 200 {
        outcome.set(
          .failure(FetchError("\(url.absoluteString): HTTP status \(http.statusCode)")))
      } else {
        outcome.set(.success([UInt8](data ?? Data())))
      }
      done.signal()
    }
    task.resume()
    done.wait()
    return outcome.get() ?? .failure(FetchError("\(url.absoluteString): no answer"))
  }

  /// The result, handed from the session's thread to the waiting one.
  private final class Outcome: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Result<[UInt8], FetchError>?

    func set(_ result: Result<[UInt8], FetchError>) {
      lock.lock()
      value = result
      lock.unlock()
    }

    func get() -> Result<[UInt8], FetchError>? {
      lock.lock()
      defer { lock.unlock() }
      return value
    }
  }
}

/// A download that failed: the URL and why.
struct FetchError: Error, CustomStringConvertible {
  /// `URL: problem`.
  var description: String

  init(_ description: String) { self.description = description }
}
