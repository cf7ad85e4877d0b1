// What XRPCTesting's own public signatures take and give (XRPCAgent, requests and responses), so
// `import XRPCTesting` beside the code under test is enough to stub its calls.
@_exported import XRPCCore
