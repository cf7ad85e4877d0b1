// Other CPUs: no SHA-256 instructions here; SHA2 uses its portable Swift code.
#if !(defined(__x86_64__) || defined(_M_X64) || defined(__aarch64__) || defined(_M_ARM64))

#include "CSHA256Accel.h"

int csha256_accelerated(void) { return 0; }

void csha256_compress(uint32_t state[8], const uint8_t *data, size_t blocks) {
    (void)state;
    (void)data;
    (void)blocks;
}

#endif
