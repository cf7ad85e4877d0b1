#if XRPCHummingbird
    import BenchmarkSupport
    import Foundation
    import Hummingbird
    import XRPCHummingbird
    import XRPCServer

    /// The same comparison over HTTP (trait XRPCHummingbird): getFeedSkeleton through `XRPCHTTPServer` and
    /// the router beside a bare Hummingbird route answering the same bytes, each loaded by `wrk` (a separate
    /// process, so its CPU is not counted) for one second per round, in alternating rounds; the figure is
    /// this process's CPU time per request answered.
    enum HTTPComparison {
        struct Side {
            var label: String
            var port: Int
            var target: String
            var headers: [String]
        }

        /// `signatureCheck` is one ECDSA verification of the token's signature: each round also times it,
        /// for the service-auth target (at most 1.15x the bare route plus one verification).
        static func run(
            router: XRPCRouter, bareBody: Data, query: String, token: String, rounds: Int,
            signatureCheck: () -> Bool
        ) async throws {
            guard FileManager.default.isExecutableFile(atPath: "/usr/bin/wrk") else {
                print("over HTTP: not measured (needs /usr/bin/wrk: apt-get install wrk)")
                return
            }
            let xrpcPort = try await start { onListening in
                try await XRPCHTTPServer(router: router, configuration: .init(port: 0)).run(onListening: onListening)
            }
            let barePort = try await start { onListening in
                let bare = Router()
                bare.get("/xrpc/app.bsky.feed.getFeedSkeleton") { _, _ in
                    Response(
                        status: .ok, headers: [.contentType: "application/json"],
                        body: ResponseBody(byteBuffer: ByteBuffer(bytes: bareBody)))
                }
                let application = Application(
                    router: bare, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
                    onServerRunning: { await onListening($0.localAddress?.port ?? 0) })
                try await application.runService(gracefulShutdownSignals: [])
            }
            let target = "/xrpc/app.bsky.feed.getFeedSkeleton?" + query
            let sides = [
                Side(
                    label: "getFeedSkeleton, service auth (k256)", port: xrpcPort, target: target,
                    headers: ["Authorization: Bearer " + token]),
                Side(label: "getFeedSkeleton, anonymous", port: xrpcPort, target: target, headers: []),
                Side(label: "bare Hummingbird route, same bytes", port: barePort, target: target, headers: []),
            ]
            var perRequest = [[Double]](repeating: [], count: sides.count)
            var perSignature: [Double] = []
            let signatures = 1000
            for round in 0...rounds {
                for (index, side) in sides.enumerated() {
                    let start = processCPUTime()
                    let answered = try load(side)
                    let cpu = processCPUTime() - start
                    if round > 0 { perRequest[index].append(cpu / Double(answered)) }
                }
                let start = processCPUTime()
                for _ in 0..<signatures where !signatureCheck() {
                    throw Failure(description: "the signature did not verify")
                }
                if round > 0 { perSignature.append((processCPUTime() - start) / Double(signatures)) }
            }
            print("over HTTP (XRPCHTTPServer vs a bare Hummingbird route; wrk -t1 -c8, 1 s a round; server CPU only):")
            let report = Report(unit: "requests")
            for (index, side) in sides.enumerated() {
                print(report.line(side.label, Figures(perOperation: perRequest[index])))
                guard index < 2 else { continue }
                let ratios = Figures(perOperation: zip(perRequest[index], perRequest[2]).map { $0 / $1 })
                print(
                    String(
                        format: "  CPU per request: %.2fx the bare route (+%.0f %%), IQR %.2f-%.2f", ratios.median,
                        (ratios.median - 1) * 100, ratios.quantile(0.25), ratios.quantile(0.75)))
            }
            print(report.line("one ECDSA verification (k256)", Figures(perOperation: perSignature)))
            let authRatios = Figures(
                perOperation: perRequest[0].indices.map { perRequest[0][$0] / (perRequest[2][$0] + perSignature[$0]) })
            print(
                String(
                    format: "  service auth: %.2fx the bare route plus one ECDSA verification, IQR %.2f-%.2f",
                    authRatios.median, authRatios.quantile(0.25), authRatios.quantile(0.75)))
        }

        /// Starts a server in a task; returns its port once it listens.
        static func start(_ body: @escaping @Sendable (@escaping @Sendable (Int) async -> Void) async throws -> Void)
            async throws -> Int
        {
            let (ports, continuation) = AsyncStream<Int>.makeStream()
            Task {
                try? await body { continuation.yield($0) }
                continuation.finish()
            }
            for await port in ports { return port }
            throw Failure(description: "a server did not start")
        }

        /// One second of `wrk` on `side`; the requests answered (a non-2xx answer fails the run).
        static func load(_ side: Side) throws -> Int {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/wrk")
            process.arguments =
                ["-t1", "-c8", "-d1s"] + side.headers.flatMap { ["-H", $0] }
                + ["http://127.0.0.1:\(side.port)\(side.target)"]
            let output = Pipe()
            process.standardOutput = output
            try process.run()
            let data = output.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            let text = String(decoding: data, as: UTF8.self)
            guard !text.contains("Non-2xx"),
                let line = text.split(separator: "\n").first(where: { $0.contains("requests in") }),
                let count = line.split(separator: " ").first.flatMap({ Int($0) }), count > 0
            else { throw Failure(description: "wrk on \(side.label): \(text)") }
            return count
        }
    }
#endif
