import AtprotoIdentityResolution
import OAuthCore
import XRPCRuntime

/// The atproto OAuth client and its session, an `XRPCAgent`.
public enum AtprotoOAuthModule {}
