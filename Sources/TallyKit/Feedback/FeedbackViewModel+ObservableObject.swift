#if canImport(Combine)
import Combine

/// SwiftUI observes the model's `state` through its `@Published` wrapper.
extension FeedbackViewModel: ObservableObject {}
#endif
