import AtprotoIdentity

print("identity-bench: not written yet")
