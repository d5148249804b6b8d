#if canImport(SwiftUI) && canImport(Combine)
import SwiftUI
import TallyEvents

/// Like / dislike buttons for one recommended item, with the reasons panel, undo and retry:
/// a view of ``FeedbackViewModel``'s state and nothing else.
///
/// The owner keeps the model (one per displayed item) so a reused cell keeps its state.
/// Labels are localizable string keys.
@MainActor
public struct FeedbackView: View {
    @ObservedObject private var model: FeedbackViewModel

    /// A view of `model`.
    public init(model: FeedbackViewModel) {
        self.model = model
    }

    /// The control for the current state.
    public var body: some View {
        switch model.state {
        case .idle, .succeeded(.neutral):
            HStack(spacing: 12) {
                tapButton("hand.thumbsup", label: "Like") { await model.like() }
                tapButton("hand.thumbsdown", label: "Dislike") { await model.dislike() }
            }
        case .submitting:
            ProgressView()
        case .succeeded(let kind):
            HStack(spacing: 12) {
                Image(systemName: kind == .like ? "hand.thumbsup.fill" : "hand.thumbsdown.fill")
                    .accessibilityLabel(kind == .like ? Text("Liked") : Text("Disliked"))
                Button("Undo") { Task { await model.undo() } }
            }
        case .failed(let message):
            HStack(spacing: 12) {
                Text(message).font(.caption).foregroundColor(.red)
                Button("Retry") { Task { await model.retry() } }
            }
        case .choosingReason:
            VStack(alignment: .leading, spacing: 8) {
                ForEach(model.reasons, id: \.self) { reason in
                    Button(reason) { Task { await model.chooseReason(reason) } }
                }
                HStack {
                    Button("Skip") { Task { await model.chooseReason(nil) } }
                    Button("Cancel", role: .cancel) { model.dismissReasons() }
                }
            }
        }
    }

    /// A round icon button running `action`.
    private func tapButton(_ systemImage: String, label: LocalizedStringKey,
                           action: @escaping @MainActor @Sendable () async -> Void) -> some View {
        Button { Task { await action() } } label: {
            Image(systemName: systemImage).padding(8).background(Color.gray.opacity(0.15)).clipShape(Circle())
        }
        .buttonStyle(.plain)
        .accessibilityLabel(Text(label))
    }
}
#endif
