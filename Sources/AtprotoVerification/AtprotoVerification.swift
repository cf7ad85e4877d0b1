import AtprotoCrypto
import AtprotoIdentityResolution
import XRPCRuntime

/// Verified repository data: commit signatures, MST proofs, whole repositories and the firehose.
public enum AtprotoVerificationModule {}
