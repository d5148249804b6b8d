// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "tally",
    platforms: [.macOS(.v13), .iOS(.v16)],
    products: [
        .library(name: "TallyEvents", targets: ["TallyEvents"]),
        .library(name: "TallyStore", targets: ["TallyStore"]),
        .library(name: "TallyQuery", targets: ["TallyQuery"]),
        .library(name: "TallyRender", targets: ["TallyRender"]),
        .library(name: "TallyKit", targets: ["TallyKit"]),
        .library(name: "TallyServer", targets: ["TallyServer"]),
        .library(name: "TallySimulation", targets: ["TallySimulation"]),
        .library(name: "TallyClickHouse", targets: ["TallyClickHouse"]),
        .executable(name: "report", targets: ["report"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    ],
    targets: [
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]),
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .target(name: "CSQLiteConfig", linkerSettings: [.linkedLibrary("sqlite3")]),
        .target(name: "TallyEvents"),
        .target(name: "TallyStore", dependencies: ["TallyEvents", "CSQLite", "CSQLiteConfig", "CZlib"]),
        .target(name: "TallyKit", dependencies: ["TallyEvents", "CZlib"]),
        .target(name: "TallySimulation", dependencies: ["TallyKit", "TallyEvents"]),
        .target(name: "TallyQuery", dependencies: ["TallyEvents", "TallyStore"], resources: [.copy("queries")]),
        .target(name: "TallyRender", dependencies: ["TallyEvents", "TallyStore", "TallyQuery"]),
        .target(name: "TallyServer", dependencies: [
            "TallyEvents", "TallyStore", "TallyQuery", "TallyRender",
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "HummingbirdCore", package: "hummingbird"),
            .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOPosix", package: "swift-nio"),
            .product(name: "Logging", package: "swift-log"),
        ], resources: [.copy("Resources")]),
        .target(name: "TallyClickHouse", dependencies: ["TallyEvents", "TallyStore", "TallyQuery", "TallyKit"]),
        .executableTarget(name: "report", dependencies: [
            "TallyEvents", "TallyStore", "TallyQuery", "TallyRender", "TallyServer", "TallySimulation", "TallyClickHouse",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),
        .target(name: "TallyTestSupport", path: "Tests/TallyTestSupport"),
        .executableTarget(name: "QueueCrashChild", dependencies: ["TallyKit", "TallyEvents"], path: "Tests/QueueCrashChild"),
        .testTarget(name: "TallyEventsTests", dependencies: ["TallyEvents"]),
        .testTarget(name: "TallyStoreTests", dependencies: ["TallyStore", "TallyTestSupport"]),
        .testTarget(name: "TallyQueryTests", dependencies: ["TallyQuery", "TallyStore", "TallyEvents", "TallyTestSupport"]),
        .testTarget(name: "TallyRenderTests", dependencies: ["TallyRender", "TallyTestSupport"], resources: [.copy("Golden")]),
        .testTarget(name: "TallyKitTests", dependencies: ["TallyKit", "TallyEvents", "TallyTestSupport", "QueueCrashChild"]),
        .testTarget(name: "TallyServerTests", dependencies: [
            "TallyServer", "TallyRender", "TallyQuery", "TallyStore", "TallyKit",
            .product(name: "HummingbirdTesting", package: "hummingbird"),
        ]),
        .testTarget(name: "ReportEndToEndTests", dependencies: ["report", "TallyKit", "TallyEvents", "TallyRender", "TallyTestSupport"]),
        .testTarget(name: "TallySimulationTests", dependencies: ["TallySimulation", "TallyStore", "TallyQuery", "TallyEvents"]),
        .testTarget(name: "TallyClickHouseTests", dependencies: ["TallyClickHouse", "TallyQuery", "TallyStore", "TallyEvents", "TallyTestSupport", "report"]),
    ],
    swiftLanguageModes: [.v6]
)
