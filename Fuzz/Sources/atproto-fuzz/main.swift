import FuzzDriver

// atproto-fuzz <target> [libFuzzer flags] [corpus folders]; `atproto-fuzz list` names the targets.
runFuzzer(
    dataModelTargets + streamTargets + formatTargets + identityTargets + verificationTargets + oauthTargets
        + lexiconTargets + lexiconInstallTargets + serverTargets + [plantedTarget]
)
