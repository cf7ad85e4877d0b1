import AtprotoIdentityResolution

print("identity-bench: not written yet")
