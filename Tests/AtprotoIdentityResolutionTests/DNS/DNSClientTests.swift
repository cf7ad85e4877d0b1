import AtprotoIdentityResolution
import XCTest

/// ``UDPDNSClient`` against ``DNSTestServer``: answers, failures, fallbacks.
final class DNSClientTests: XCTestCase {
    private func client(_ servers: DNSTestServer..., timeout: Duration = .seconds(2), attempts: Int = 2)
        -> UDPDNSClient
    {
        UDPDNSClient(nameservers: servers.map(\.nameserver), timeout: timeout, attempts: attempts)
    }

    func testJoinsTheCharacterStringsOfARecord() async throws {
        let server = try startDNSServer { query in
            [DNSTestMessage.answer(to: query, answers: [DNSTestMessage.txt(["did=did:plc:", "abc", "def"])])]
        }
        let records = try await client(server).txtRecords(for: "_atproto.alice.example.com")
        XCTAssertEqual(records, ["did=did:plc:abcdef"])
    }

    func testSendsAStandardTXTQueryInLowerCase() async throws {
        let server = try startDNSServer { query in [DNSTestMessage.answer(to: query)] }
        let records = try await client(server).txtRecords(for: "_Lexicon.Example.COM.")
        XCTAssertEqual(records, [])
        let query = try XCTUnwrap(server.queries.first)
        XCTAssertEqual(query.name, "_lexicon.example.com")
        XCTAssertEqual(query.type, 16)
        XCTAssertEqual(query.qclass, 1)
        XCTAssertEqual(query.flags, 0x0100, "a standard query with RD set")
        XCTAssertFalse(query.overTCP)
    }

    func testQueryIDsAreRandom() async throws {
        let server = try startDNSServer { query in [DNSTestMessage.answer(to: query)] }
        let dns = client(server)
        for _ in 0..<6 { _ = try await dns.txtRecords(for: "example.com") }
        XCTAssertGreaterThan(Set(server.queries.map(\.id)).count, 1)
    }

    func testReturnsEveryTXTRecordAndSkipsOtherTypes() async throws {
        let server = try startDNSServer { query in
            [
                DNSTestMessage.answer(
                    to: query,
                    answers: [
                        DNSTestMessage.txt(["v=spf1 -all"]), DNSTestMessage.a(),
                        DNSTestMessage.txt(["did=did:plc:one"]), DNSTestMessage.txt([]),
                    ])
            ]
        }
        let records = try await client(server).txtRecords(for: "example.com")
        XCTAssertEqual(records, ["v=spf1 -all", "did=did:plc:one", ""])
    }

    func testTakesTXTRecordsOfTheCNAMETargetOnly() async throws {
        let server = try startDNSServer { query in
            [
                DNSTestMessage.answer(
                    to: query,
                    answers: [
                        DNSTestMessage.cname(to: "Hop.example.net"),
                        DNSTestMessage.cname(owner: DNSTestMessage.wireName("hop.example.net"), to: "end.example.org"),
                        DNSTestMessage.txt(owner: DNSTestMessage.wireName("END.example.org"), ["did=did:plc:end"]),
                        DNSTestMessage.txt(owner: DNSTestMessage.wireName("other.example"), ["did=did:plc:evil"]),
                    ])
            ]
        }
        let records = try await client(server).txtRecords(for: "_atproto.alias.example.com")
        XCTAssertEqual(records, ["did=did:plc:end"])
    }

    func testNXDOMAINGivesNoRecords() async throws {
        let server = try startDNSServer { query in [DNSTestMessage.answer(to: query, rcode: 3)] }
        let records = try await client(server).txtRecords(for: "_atproto.nobody.example")
        XCTAssertEqual(records, [])
        XCTAssertEqual(server.queries.count, 1, "NXDOMAIN is an answer: no other server or round")
    }

    func testSERVFAILOnTheFirstServerThenTheSecondAnswers() async throws {
        let failing = try startDNSServer { query in [DNSTestMessage.answer(to: query, rcode: 2)] }
        let working = try startDNSServer { query in
            [DNSTestMessage.answer(to: query, answers: [DNSTestMessage.txt(["did=did:plc:second"])])]
        }
        let records = try await client(failing, working).txtRecords(for: "_atproto.alice.example.com")
        XCTAssertEqual(records, ["did=did:plc:second"])
        XCTAssertEqual(failing.queries.count, 1)
        XCTAssertEqual(working.queries.count, 1)
    }

    func testEveryServerRefusingThrowsServerFailureAfterEveryRound() async throws {
        let first = try startDNSServer { query in [DNSTestMessage.answer(to: query, rcode: 2)] }
        let second = try startDNSServer { query in [DNSTestMessage.answer(to: query, rcode: 5)] }
        let error = await assertDNSError(.serverFailure) {
            try await self.client(first, second, attempts: 3).txtRecords(for: "example.com")
        }
        XCTAssertEqual(first.queries.count, 3)
        XCTAssertEqual(second.queries.count, 3)
        XCTAssertEqual(error?.server, second.nameserver)
        XCTAssertEqual(error?.rcode, 5, "the last server's response code survives beside the code")
        XCTAssertEqual(error?.code.rawValue, "serverFailure")
        XCTAssertEqual(error?.name, "example.com")
        XCTAssertTrue(error?.message.contains("REFUSED") ?? false, error?.message ?? "")
    }

    func testASilentServerTimesOutWithinTheTimeout() async throws {
        let silent = try startDNSServer { _ in [] }
        let started = ContinuousClock.now
        let error = await assertDNSError(.timedOut) {
            try await self.client(silent, timeout: .milliseconds(300), attempts: 2).txtRecords(for: "example.com")
        }
        let elapsed = ContinuousClock.now - started
        XCTAssertGreaterThanOrEqual(elapsed, .milliseconds(550))
        XCTAssertLessThan(elapsed, .milliseconds(1_500), "two rounds of 300 ms")
        XCTAssertEqual(silent.queries.count, 2)
        XCTAssertTrue(error?.message.contains(silent.nameserver.description) ?? false, error?.message ?? "")
    }

    func testAnAnswerWithAnotherIDIsIgnored() async throws {
        let server = try startDNSServer { query in
            [
                DNSTestMessage.answer(to: query, id: query.id &+ 1, answers: [DNSTestMessage.txt(["did=spoofed"])]),
                DNSTestMessage.answer(to: query, questionName: "other.example", answers: [DNSTestMessage.txt(["x"])]),
                DNSTestMessage.answer(to: query, answers: [DNSTestMessage.txt(["did=did:plc:real"])]),
            ]
        }
        let records = try await client(server).txtRecords(for: "example.com")
        XCTAssertEqual(records, ["did=did:plc:real"])
    }

    func testOnlyAnswersWithAnotherIDTimeOut() async throws {
        let server = try startDNSServer { query in
            [DNSTestMessage.answer(to: query, id: query.id ^ 0x8000, answers: [DNSTestMessage.txt(["did=spoofed"])])]
        }
        await assertDNSError(.timedOut) {
            try await self.client(server, timeout: .milliseconds(200), attempts: 1).txtRecords(for: "example.com")
        }
    }

    func testACompressionPointerLoopIsMalformed() async throws {
        // The answer's owner at offset 29: the label "a", then a pointer back to 29.
        let server = try startDNSServer { query in
            let header = DNSTestMessage.answer(to: query)
            var packet = Array(header[0..<7]) + [1] + Array(header[8...])  // ANCOUNT 1
            XCTAssertEqual(packet.count, 29, "the question is example.com")
            packet += [1, 97, 0xC0, 29] + DNSTestMessage.word(16) + DNSTestMessage.word(1) + [0, 0, 0, 1, 0, 0]
            return [packet]
        }
        let error = await assertDNSError(.malformedResponse) {
            try await self.client(server, attempts: 1).txtRecords(for: "example.com")
        }
        XCTAssertTrue(error?.message.contains("pointer") ?? false, error?.message ?? "")
    }

    func testAPointerToItselfInTheQuestionIsMalformed() async throws {
        let server = try startDNSServer { query in
            let header = Array(DNSTestMessage.answer(to: query)[0..<12])
            return [header + [0xC0, 12] + DNSTestMessage.word(16) + DNSTestMessage.word(1)]
        }
        await assertDNSError(.malformedResponse) {
            try await self.client(server, attempts: 1).txtRecords(for: "example.com")
        }
    }

    func testATruncatedPacketIsMalformed() async throws {
        let server = try startDNSServer { query in
            let whole = DNSTestMessage.answer(to: query, answers: [DNSTestMessage.txt(["did=did:plc:abcdef"])])
            return [Array(whole.dropLast(5))]
        }
        await assertDNSError(.malformedResponse) {
            try await self.client(server, attempts: 1).txtRecords(for: "example.com")
        }
    }

    func testACharacterStringOverrunningItsRecordIsMalformed() async throws {
        let server = try startDNSServer { query in
            [DNSTestMessage.answer(to: query, answers: [DNSTestMessage.record(type: 16, data: [9, 65, 66])])]
        }
        await assertDNSError(.malformedResponse) {
            try await self.client(server, attempts: 1).txtRecords(for: "example.com")
        }
    }

    func testTheTCBitFallsBackToTCP() async throws {
        let long = String(repeating: "x", count: 255)
        let server = try startDNSServer { query in
            query.overTCP
                ? [DNSTestMessage.answer(to: query, answers: (0..<4).map { _ in DNSTestMessage.txt([long, long]) })]
                : [DNSTestMessage.answer(to: query, truncated: true)]
        }
        let records = try await client(server).txtRecords(for: "_lexicon.example.com")
        XCTAssertEqual(records, Array(repeating: long + long, count: 4))
        XCTAssertEqual(server.queries.map(\.overTCP), [false, true])
    }

    func testARefusedPortHandsOverToTheNextServer() async throws {
        let closed = try DNSTestServer { _ in [] }
        let closedServer = closed.nameserver
        closed.stop()
        let working = try startDNSServer { query in
            [DNSTestMessage.answer(to: query, answers: [DNSTestMessage.txt(["ok"])])]
        }
        let dns = UDPDNSClient(nameservers: [closedServer, working.nameserver], timeout: .seconds(2), attempts: 1)
        let started = ContinuousClock.now
        let records = try await dns.txtRecords(for: "example.com")
        XCTAssertEqual(records, ["ok"])
        XCTAssertLessThan(ContinuousClock.now - started, .seconds(2), "ICMP port unreachable ends the wait")
    }

    func testCancellationEndsAWaitEarly() async throws {
        let silent = try startDNSServer { _ in [] }
        let dns = client(silent, timeout: .seconds(10), attempts: 1)
        let started = ContinuousClock.now
        let lookup = Task { try await dns.txtRecords(for: "example.com") }
        try await Task.sleep(for: .milliseconds(150))
        lookup.cancel()
        do {
            let records = try await lookup.value
            XCTFail("expected CancellationError, got \(records)")
        } catch {
            XCTAssertTrue(error is CancellationError, "\(error)")
        }
        XCTAssertLessThan(ContinuousClock.now - started, .seconds(2))
    }

    func testAnIPv6ServerAnswers() async throws {
        let server: DNSTestServer
        do {
            server = try startDNSServer(host: "::1") { query in
                [DNSTestMessage.answer(to: query, answers: [DNSTestMessage.txt(["did=did:plc:six"])])]
            }
        } catch {
            throw XCTSkip("no IPv6 loopback here: \(error)")
        }
        XCTAssertEqual(server.nameserver.description, "[::1]:\(server.port)")
        let records = try await client(server).txtRecords(for: "_atproto.six.example")
        XCTAssertEqual(records, ["did=did:plc:six"])
    }

    func testATCPAnswerCutShortIsMalformed() async throws {
        let server = try startDNSServer(frameTCP: false) { query in
            let whole = DNSTestMessage.answer(to: query, answers: [DNSTestMessage.txt(["did=did:plc:abc"])])
            return query.overTCP
                ? [DNSTestMessage.word(UInt16(whole.count)) + whole.prefix(20)]
                : [DNSTestMessage.answer(to: query, truncated: true)]
        }
        let error = await assertDNSError(.malformedResponse) {
            try await self.client(server, attempts: 1).txtRecords(for: "example.com")
        }
        XCTAssertTrue(error?.message.contains("TCP") ?? false, error?.message ?? "")
    }

    func testACancelledTaskAsksNoOne() async throws {
        let server = try startDNSServer { query in [DNSTestMessage.answer(to: query)] }
        let dns = client(server)
        let lookup = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await dns.txtRecords(for: "example.com")
        }
        do {
            _ = try await lookup.value
            XCTFail("expected CancellationError")
        } catch {
            XCTAssertTrue(error is CancellationError, "\(error)")
        }
        XCTAssertEqual(server.queries.count, 0)
    }

    func testConcurrentLookupsGetTheirOwnAnswers() async throws {
        let server = try startDNSServer { query in
            [DNSTestMessage.answer(to: query, answers: [DNSTestMessage.txt(["for=" + query.name])])]
        }
        let dns = client(server)
        let answers = try await withThrowingTaskGroup(of: (String, [String]).self) { group in
            for index in 0..<24 {
                let name = "_atproto.user\(index).example"
                group.addTask { (name, try await dns.txtRecords(for: name)) }
            }
            return try await group.reduce(into: [:]) { $0[$1.0] = $1.1 }
        }
        XCTAssertEqual(answers.count, 24)
        for (name, records) in answers { XCTAssertEqual(records, ["for=" + name]) }
    }
}
