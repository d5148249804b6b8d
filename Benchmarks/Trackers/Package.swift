// swift-tools-version:6.0
// The caller's cost of ObservabilityTracker.track: building one observability event (id,
// instant, properties as JSON) and handing it to a sink that does nothing.
// swift run -c release --package-path Benchmarks/Trackers tracker-bench [--calls N]
import PackageDescription

let package = Package(
    name: "Trackers",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "tally", path: "../.."),
    ],
    targets: [
        .executableTarget(name: "tracker-bench", dependencies: [
            .product(name: "TallyKit", package: "tally"),
            .product(name: "TallyEvents", package: "tally"),
        ]),
    ],
    swiftLanguageModes: [.v6]
)
