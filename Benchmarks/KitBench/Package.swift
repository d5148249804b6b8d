// swift-tools-version:6.0
import PackageDescription

// Benchmarks of TallyKit's collection stack, kept out of the main package so its build stays lean.
let package = Package(
    name: "KitBench",
    platforms: [.macOS(.v13), .iOS(.v16)],
    dependencies: [.package(name: "tally", path: "../..")],
    targets: [
        .executableTarget(name: "KitBench", dependencies: [
            .product(name: "TallyKit", package: "tally"),
            .product(name: "TallyEvents", package: "tally"),
        ]),
    ],
    swiftLanguageModes: [.v6]
)
