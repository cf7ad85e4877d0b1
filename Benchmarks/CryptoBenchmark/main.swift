import AtprotoCrypto

print("crypto-bench: not written yet")
