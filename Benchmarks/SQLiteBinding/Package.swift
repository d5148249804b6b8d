// swift-tools-version:6.0
// Inserting event rows into SQLite: a thin layer on the C API against GRDB 7.
// swift run -c release --package-path Benchmarks/SQLiteBinding sqlite-binding-bench [--rows N] [--batch N]
import PackageDescription

let package = Package(
    name: "SQLiteBinding",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
    ],
    targets: [
        .systemLibrary(name: "CSQLite", providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]),
        .executableTarget(name: "sqlite-binding-bench", dependencies: [
            "CSQLite",
            .product(name: "GRDB", package: "GRDB.swift"),
        ]),
    ],
    swiftLanguageModes: [.v6]
)
