// What BlueskyVideo's public signatures take and give: the generated app.bsky types (the video
// lexicons, the embed) and the XRPC client, agents and service auth.
@_exported import AppBskyLexicons
@_exported import XRPCRuntime
