// Two service-auth tokens for the benchmark (iat 1800000000, exp 60 s later, lxm getFeedSkeleton), signed
// once by keys made in XRPCServerTests' test signer; the benchmark's verifier runs its clock at iat + 1.
// Test data only: the keys are throwaway and their private halves are not kept.
enum BenchmarkTokens {
    static let audience = "did:web:feeds.example.com"
    static let k256Issuer = "did:plc:benchk256aaaaaaaaaaaaaaa"
    static let k256Key = "zQ3shaxkejnKwrU4EEbbjPD9wHamEESeNsFpxmARoFRDzvQ4F"
    static let k256Token =
        "eyJhbGciOiJFUzI1NksiLCJ0eXAiOiJKV1QifQ.eyJhdWQiOiJkaWQ6d2ViOmZlZWRzLmV4YW1wbGUuY29tIiwiZXhwIjoxODAwMDAwMDYwLCJpYXQiOjE4MDAwMDAwMDAsImlzcyI6ImRpZDpwbGM6YmVuY2hrMjU2YWFhYWFhYWFhYWFhYWFhIiwianRpIjoiYmVuY2gtYmVuY2gtazI1NiIsImx4bSI6ImFwcC5ic2t5LmZlZWQuZ2V0RmVlZFNrZWxldG9uIn0.lbFK0llnXLJ7yGP_77HGbvRhIZZF-7AtI0D9AiogGVpOoZXUhWGd3_ncWKAdMUxyZ4SRqILVMi3uENosIrLKsQ"
    static let p256Issuer = "did:plc:benchp256aaaaaaaaaaaaaaa"
    static let p256Key = "zDnaeR8NwpkNWas5BbmbVyugGcbReURTvdnAd6hFTb4mgS9x5"
    static let p256Token =
        "eyJhbGciOiJFUzI1NiIsInR5cCI6IkpXVCJ9.eyJhdWQiOiJkaWQ6d2ViOmZlZWRzLmV4YW1wbGUuY29tIiwiZXhwIjoxODAwMDAwMDYwLCJpYXQiOjE4MDAwMDAwMDAsImlzcyI6ImRpZDpwbGM6YmVuY2hwMjU2YWFhYWFhYWFhYWFhYWFhIiwianRpIjoiYmVuY2gtYmVuY2gtcDI1NiIsImx4bSI6ImFwcC5ic2t5LmZlZWQuZ2V0RmVlZFNrZWxldG9uIn0.ZECzRmfgLW6aTLoJ1rkVPJt5eVlKc0f8zRaM3M4t5Gshwm9qNDxqycbPVHr3Og-LtiDGx94-jeBoidJPqj4q8Q"
}
