import Foundation

/// OAuth 2.1 building blocks with no atproto in them: PKCE, server metadata, PAR, tokens, DPoP, JWS.
public enum OAuthCoreModule {}
