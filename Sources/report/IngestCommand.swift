import ArgumentParser
import Foundation
import TallyClickHouse
import TallyIngest
import TallyRender
import TallySQLite

/// `report ingest FILE... | -`: validate event files and store them, skipping duplicates.
struct IngestCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ingest", abstract: "Load event files (NDJSON, batch JSON, gzip, or - for stdin) into the store.",
        discussion: """
            Rejected lines are reported on stderr as file:line: CODE: message, kept in the store \
            (see `report rejected`), and never stop the file. Events whose idempotency key is already \
            stored are skipped as duplicates. A file that cannot be read to its end (a truncated gzip, \
            or a damaged batch element too long to search again for the events after it) \
            keeps the records before the damage and the next files are still read. Exit status 0 when \
            every file was read.
            """)

    @Argument(help: "Event files; - reads standard input.")
    var files: [String]

    @Option(help: "The store file (default: \(StoreFile.defaultHelp)).")
    var db: String?

    @Option(help: ArgumentHelp(OutputFormat.choices + "."))
    var format: OutputFormat = .table

    @Option(name: .customLong("keep-rejected"),
            help: "Rejected lines of each file kept whole in the store; later ones keep only file, line and code.")
    var keepRejected = 1000

    @OptionGroup var storage: BackendOptions

    /// Rejections printed on stderr before the rest are only counted.
    static let rejectionsShown = 1000

    func validate() throws {
        guard !files.isEmpty else { throw ValidationError("Name at least one file to ingest, or - for standard input.") }
        guard keepRejected >= 0 else { throw ValidationError("--keep-rejected must be 0 or more, got \(keepRejected).") }
    }

    func run() throws {
        let path = StoreFile.path(db)
        for file in files where file != "-" {
            guard FileManager.default.isReadableFile(atPath: file) else {
                throw IngestFailure("Cannot read \(file): \(FileManager.default.fileExists(atPath: file) ? "permission denied" : "no such file").")
            }
        }
        let ingestor: any EventIngesting
        // The ClickHouse database's one writer, for as long as this command runs.
        var writerLock: ClickHouseWriterLock?
        defer { writerLock?.release() }
        switch storage.backend {
        case .sqlite:
            do {
                let sqlite = try Ingestor(store: try EventStore(path: path))
                sqlite.rejectedLinesKeptInFull = keepRejected
                ingestor = sqlite
            } catch let error as StoreError {
                throw IngestFailure("Cannot write the store \(path): \(error)")
            } catch {
                throw IngestFailure("Cannot write the store \(path): \(error).")
            }
        case .clickhouse:
            do {
                let client = try storage.clickHouseClient()
                writerLock = try ClickHouseWriterLock.acquire(using: client, command: "report ingest")
                for shard in try ClickHouseSchema.create(using: client) { Terminal.writeError("\(shard)\n") }
                let clickHouse = ClickHouseIngestor(client: client)
                clickHouse.rejectedLinesKeptInFull = keepRejected
                ingestor = clickHouse
            } catch {
                throw IngestFailure("Cannot write to ClickHouse: \(error)")
            }
        }
        var shown = 0
        var unreadable: [String] = []
        for file in files {
            let size = file == "-" ? nil : (try? FileManager.default.attributesOfItem(atPath: file)[.size] as? Int) ?? nil
            let bar = ProgressBar.make(label: (file as NSString).lastPathComponent, totalBytes: size)
            defer { bar?.finish() }
            do {
                _ = try ingestor.ingest(file: file, onRejection: { origin, rejection in
                    shown += 1
                    guard shown <= Self.rejectionsShown else { return }
                    bar?.finish()
                    Terminal.writeError("\(origin.label): \(rejection.code.rawValue): \(rejection.message)\n")
                }, onProgress: { read, total in
                    bar?.update(bytesRead: read, totalBytes: total)
                })
            } catch let error as EventFileError {
                // The records before the damage are stored; the next files are still read.
                bar?.finish()
                Terminal.writeError("\(error) The records before it are stored.\n")
                unreadable.append(file)
            }
        }
        let counts = ingestor.counts
        if shown > Self.rejectionsShown {
            let store = storage.backend == .sqlite ? "--db \(path)" : "--backend clickhouse"
            Terminal.writeError("… and \(shown - Self.rejectionsShown) more rejected lines: see `report rejected \(store)`.\n")
        }
        Terminal.write(Renderer(color: Terminal.wantsColor(format: format)).render(counts, as: format))
        if !unreadable.isEmpty {
            throw IngestFailure("\(unreadable.count) of \(files.count) files could not be read to the end: "
                                + unreadable.joined(separator: ", ") + ".")
        }
    }
}

// MARK: - Failure

/// An ingest that could not run: one sentence, exit status 1.
struct IngestFailure: Error, CustomStringConvertible {
    /// The sentence.
    var description: String

    init(_ description: String) {
        self.description = description
    }
}
