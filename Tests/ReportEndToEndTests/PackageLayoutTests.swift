import Foundation
import XCTest

/// Package.swift declares exactly the modules each target imports: nothing imported only by
/// luck of the build order, nothing declared that no file imports, and the dependencies run
/// one way (the ClickHouse backend does not link the app SDK).
final class PackageLayoutTests: XCTestCase {
    private static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Each target of Package.swift with the modules it declares (targets and products alike).
    private static func declaredDependencies() throws -> [String: Set<String>] {
        let manifest = try String(contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8)
        let target = try NSRegularExpression(pattern: #"\.(?:target|executableTarget|testTarget|systemLibrary)\(name: "([A-Za-z]+)""#)
        let name = try NSRegularExpression(pattern: #""([A-Za-z]+)""#)
        var declared: [String: Set<String>] = [:]
        let text = manifest as NSString
        let matches = target.matches(in: manifest, range: NSRange(location: 0, length: text.length))
        for (index, match) in matches.enumerated() {
            let end = index + 1 < matches.count ? matches[index + 1].range.location : text.length
            let segment = text.substring(with: NSRange(location: match.range.upperBound, length: end - match.range.upperBound))
            var modules: Set<String> = []
            if let open = segment.range(of: "dependencies: [") {
                let list = String(segment[open.upperBound...].prefix { $0 != "]" })
                    .replacingOccurrences(of: #"package: "[A-Za-z-]+""#, with: "", options: .regularExpression)
                let ns = list as NSString
                for found in name.matches(in: list, range: NSRange(location: 0, length: ns.length)) {
                    modules.insert(ns.substring(with: found.range(at: 1)))
                }
            }
            declared[text.substring(with: match.range(at: 1))] = modules
        }
        return declared
    }

    /// The modules the Swift files under `folder` import.
    private static func imports(under folder: URL) throws -> Set<String> {
        let pattern = try NSRegularExpression(pattern: #"^(?:@testable )?import ([A-Za-z_]+)"#, options: .anchorsMatchLines)
        var modules: Set<String> = []
        let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)
        while let file = files?.nextObject() as? URL {
            guard file.pathExtension == "swift" else { continue }
            let text = try String(contentsOf: file, encoding: .utf8)
            let ns = text as NSString
            for match in pattern.matches(in: text, range: NSRange(location: 0, length: ns.length)) {
                modules.insert(ns.substring(with: match.range(at: 1)))
            }
        }
        return modules
    }

    func testEverySourceTargetDeclaresExactlyWhatItImports() throws {
        let declared = try Self.declaredDependencies()
        let known = Set(declared.keys).union(declared.values.flatMap { $0 })
        let sources = Self.root.appendingPathComponent("Sources")
        var checked = 0
        for target in try FileManager.default.contentsOfDirectory(atPath: sources.path).sorted() {
            guard let dependencies = declared[target] else { continue }
            let imported = try Self.imports(under: sources.appendingPathComponent(target)).intersection(known).subtracting([target])
            guard !imported.isEmpty || !dependencies.isEmpty else { continue }
            XCTAssertEqual(imported.sorted(), dependencies.sorted(), "\(target): imported vs declared in Package.swift")
            checked += 1
        }
        XCTAssertGreaterThanOrEqual(checked, 9)
        XCTAssertFalse(declared["TallyClickHouse", default: []].contains("TallyKit"), "the ClickHouse backend must not link the app SDK")
    }

    /// The backend protocol is dialect-neutral: `ReportBackend.swift` (and the interrupter its
    /// ad hoc SQL takes, in TallySupport) import nothing of the SQLite store.
    func testTheBackendProtocolDoesNotImportTheSQLiteStore() throws {
        for path in ["Sources/TallyQuery/ReportBackend.swift", "Sources/TallySupport/StatementInterrupter.swift"] {
            let text = try String(contentsOf: Self.root.appendingPathComponent(path), encoding: .utf8)
            let imports = text.split(separator: "\n").filter { $0.hasPrefix("import ") }
            XCTAssertFalse(imports.contains { $0 == "import TallyStore" || $0 == "import CSQLite" }, "\(path): \(imports)")
        }
    }
}
