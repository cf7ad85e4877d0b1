// SHA-256 block compression with the CPU's own SHA instructions, for the SHA2 module.
//
// x86-64: the SHA extensions (SHA-NI, with SSSE3 and SSE4.1); arm64: the ARMv8 SHA2 instructions.
// Whether the running CPU has them is decided once, at run time; elsewhere, or without them,
// csha256_accelerated() is 0 and SHA2 uses its portable Swift code.
#ifndef CSHA256_ACCEL_H
#define CSHA256_ACCEL_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// 1 when this CPU has SHA-256 instructions that csha256_compress uses, 0 otherwise.
int csha256_accelerated(void);

/// Folds `blocks` 64-byte blocks at `data` into `state` (h0 ... h7, FIPS 180-4 order).
/// Only call it when csha256_accelerated() is 1.
void csha256_compress(uint32_t state[8], const uint8_t *data, size_t blocks);

#ifdef __cplusplus
}
#endif

#endif
