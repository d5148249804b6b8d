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
        .library(name: "TallyClickHouse", targets: ["TallyClickHouse"]),
        .executable(name: "report", targets: ["report"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    ],
    targets: [
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]),
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .target(name: "CSQLiteConfig", linkerSettings: [.linkedLibrary("sqlite3")]),
        .target(name: "TallyEvents"),
        .target(name: "TallyStore", dependencies: ["TallyEvents", "CSQLite", "CSQLiteConfig", "CZlib"]),
        .target(name: "TallyKit", dependencies: ["TallyEvents", "CZlib"]),
        .target(name: "TallyQuery", dependencies: ["TallyStore"], resources: [.copy("queries")]),
        .target(name: "TallyRender", dependencies: ["TallyQuery"]),
        .target(name: "TallyClickHouse", dependencies: ["TallyEvents", "TallyStore", "TallyQuery", "TallyKit"]),
        .executableTarget(name: "report", dependencies: [
            "TallyStore", "TallyQuery", "TallyRender", "TallyClickHouse",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),
        .target(name: "TallyTestSupport", path: "Tests/TallyTestSupport"),
        .testTarget(name: "TallyEventsTests", dependencies: ["TallyEvents"]),
        .testTarget(name: "TallyStoreTests", dependencies: ["TallyStore", "TallyTestSupport"]),
        .testTarget(name: "TallyQueryTests", dependencies: ["TallyQuery", "TallyStore", "TallyEvents", "TallyTestSupport"]),
        .testTarget(name: "TallyRenderTests", dependencies: ["TallyRender", "TallyTestSupport"], resources: [.copy("Golden")]),
        .testTarget(name: "TallyKitTests", dependencies: ["TallyKit", "TallyEvents", "TallyTestSupport"]),
        .testTarget(name: "ReportEndToEndTests", dependencies: ["report"]),
        .testTarget(name: "TallyClickHouseTests", dependencies: ["TallyClickHouse", "TallyQuery", "TallyStore", "TallyEvents", "report"]),
    ],
    swiftLanguageModes: [.v6]
)
