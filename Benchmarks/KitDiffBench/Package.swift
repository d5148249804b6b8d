// swift-tools-version:6.0
// Time to diff 10,000 feed rows with TallyKit's ListDiff, in a few refresh shapes.
// swift run -c release --package-path Benchmarks/KitDiffBench kit-diff-bench [--items N] [--runs N]
import PackageDescription

let package = Package(
    name: "KitDiffBench",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "tally", path: "../.."),
    ],
    targets: [
        .executableTarget(name: "kit-diff-bench", dependencies: [
            .product(name: "TallyKit", package: "tally"),
        ]),
    ],
    swiftLanguageModes: [.v6]
)
