/// Why a simulation could not finish.
public struct SimulationError: Error, CustomStringConvertible {
    /// What went wrong, in a sentence.
    public let description: String
}
