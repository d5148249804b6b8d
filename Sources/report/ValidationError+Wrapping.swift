import ArgumentParser
import TallyQuery

extension ValidationError {
    /// Runs `body`, turning a parameter error into a usage error that names the flag.
    static func wrapping<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as QueryError {
            if case .invalidParameter(let name, let message) = error {
                throw ValidationError("--\(name): \(message).")
            }
            throw error
        }
    }
}
