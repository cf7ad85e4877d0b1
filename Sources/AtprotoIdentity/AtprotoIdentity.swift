import AtprotoCrypto
import XRPCRuntime

/// Identity resolution for atproto: handles, DIDs, DID documents and the keys and services they name.
public enum AtprotoIdentityModule {}
