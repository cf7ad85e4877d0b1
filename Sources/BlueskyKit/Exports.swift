// What BlueskyKit's own public signatures take and give (the generated com.atproto and app.bsky types,
// the XRPC client and its typed record calls, the handle resolver of mention detection, the account's
// preferences and profile edits of BlueskyPreferences, the video upload of BlueskyVideo), so
// `import BlueskyKit` is the one import a Bluesky app needs. Not the whole SDK: chat.bsky is
// BlueskyChat's, tools.ozone and the other namespaces are AtprotoLexicons'.
@_exported import AppBskyLexicons
@_exported import AtprotoIdentityResolution
@_exported import AtprotoRecordCalls
@_exported import BlueskyPreferences
@_exported import BlueskyVideo
@_exported import ComAtprotoLexicons
@_exported import XRPCRuntime
