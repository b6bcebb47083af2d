import ArgumentParser
import Logging
import ParleyHTTP

/// `parley-bench http`: Serve a fixed 2 KB JSON body for wrk.
struct HTTPBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "http", abstract: "Serve a fixed 2 KB JSON body for wrk.")

    @Option(help: "Address to bind.")
    var host = "127.0.0.1"

    @Option(help: "Port to bind; 0 picks a free one.")
    var port = 8090

    @Option(help: "Event-loop threads (default: one per core).")
    var threads: Int?

    @Flag(help: "Answer off the event loop (through a task), as a blocking handler would.")
    var offLoop = false

    func run() async throws {
        var configuration = HTTPServerConfiguration(host: host, port: port)
        if let threads { configuration.loopThreads = threads }
        configuration.accessLog = false
        var logger = Logger(label: "parley-bench")
        logger.logLevel = .notice
        let body = HTTPBenchmark.body
        var router = Router()
        if offLoop {
            router.on("GET", "/screen") { _, _ in .json(body) }
        } else {
            router.inline("GET", "/screen") { _, _ in .json(body) }
        }
        let server = try HTTPServer(configuration: configuration, responder: router, logger: logger)
        try await server.run()
    }

    /// A 2,048-byte JSON document shaped like a small screen.
    static let body: [UInt8] = {
        var text =
            #"{"schema":"parley.screen/1","id":"bench","title":"Benchmark","root":{"type":"vstack","id":"root","children":["#
        var index = 0
        while text.utf8.count < 1900 {
            if index > 0 { text += "," }
            text += #"{"type":"text","id":"t\#(index)","properties":{"text":"Line \#(index)"}}"#
            index += 1
        }
        text += "]},\"pad\":\""
        text += String(repeating: "x", count: 2048 - text.utf8.count - 2) + "\"}"
        return Array(text.utf8)
    }()
}
