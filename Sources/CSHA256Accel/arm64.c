// SHA-256 on arm64 with the ARMv8 SHA2 instructions (sha256h, sha256h2, sha256su0, sha256su1).
//
// The working variables stay in two registers, ABCD and EFGH; sha256h and sha256h2 do four rounds
// from four words of W + K, one updating each half (both read the halves as they were before).
// sha256su0 and sha256su1 compute the next four schedule words from the previous sixteen.
#if defined(__aarch64__) || defined(_M_ARM64)

#include "CSHA256Accel.h"
#include "internal.h"

#include <arm_neon.h>

#if defined(__APPLE__)
#include <sys/sysctl.h>
#elif defined(__linux__)
#include <sys/auxv.h>
#ifndef HWCAP_SHA2
#define HWCAP_SHA2 (1 << 6)
#endif
#endif

#define CSHA256_ARM_TARGET __attribute__((target("sha2")))

static int detect(void) {
#if defined(__APPLE__)
    // Every arm64 Apple chip has the SHA2 instructions; ask anyway, as the OS documents it.
    int present = 0;
    size_t size = sizeof(present);
    if (sysctlbyname("hw.optional.arm.FEAT_SHA256", &present, &size, NULL, 0) != 0) return 1;
    return present != 0;
#elif defined(__linux__)
    return (getauxval(AT_HWCAP) & HWCAP_SHA2) != 0;
#else
    return 0;
#endif
}

int csha256_accelerated(void) {
    static int cached = -1;
    int value = __atomic_load_n(&cached, __ATOMIC_RELAXED);
    if (value < 0) {
        value = detect();
        __atomic_store_n(&cached, value, __ATOMIC_RELAXED);
    }
    return value;
}

/// Four rounds from the words of `wk` (W + K).
CSHA256_ARM_TARGET static inline void four_rounds(uint32x4_t *abcd, uint32x4_t *efgh, uint32x4_t wk) {
    const uint32x4_t before = *abcd;
    *abcd = vsha256hq_u32(*abcd, *efgh, wk);
    *efgh = vsha256h2q_u32(*efgh, before, wk);
}

CSHA256_ARM_TARGET void csha256_compress(uint32_t state[8], const uint8_t *data, size_t blocks) {
    const uint32_t *k = csha256_round_constants;
    uint32x4_t abcd = vld1q_u32(state);
    uint32x4_t efgh = vld1q_u32(state + 4);

    for (size_t block = 0; block < blocks; block++, data += 64) {
        const uint32x4_t saved_abcd = abcd, saved_efgh = efgh;
        uint32x4_t w0 = vreinterpretq_u32_u8(vrev32q_u8(vld1q_u8(data)));
        uint32x4_t w1 = vreinterpretq_u32_u8(vrev32q_u8(vld1q_u8(data + 16)));
        uint32x4_t w2 = vreinterpretq_u32_u8(vrev32q_u8(vld1q_u8(data + 32)));
        uint32x4_t w3 = vreinterpretq_u32_u8(vrev32q_u8(vld1q_u8(data + 48)));

        four_rounds(&abcd, &efgh, vaddq_u32(w0, vld1q_u32(k)));
        four_rounds(&abcd, &efgh, vaddq_u32(w1, vld1q_u32(k + 4)));
        four_rounds(&abcd, &efgh, vaddq_u32(w2, vld1q_u32(k + 8)));
        four_rounds(&abcd, &efgh, vaddq_u32(w3, vld1q_u32(k + 12)));
        // Rounds 16 to 63: the four newest schedule vectors roll through w0 ... w3.
        for (int t = 16; t < 64; t += 16) {
            w0 = vsha256su1q_u32(vsha256su0q_u32(w0, w1), w2, w3);
            four_rounds(&abcd, &efgh, vaddq_u32(w0, vld1q_u32(k + t)));
            w1 = vsha256su1q_u32(vsha256su0q_u32(w1, w2), w3, w0);
            four_rounds(&abcd, &efgh, vaddq_u32(w1, vld1q_u32(k + t + 4)));
            w2 = vsha256su1q_u32(vsha256su0q_u32(w2, w3), w0, w1);
            four_rounds(&abcd, &efgh, vaddq_u32(w2, vld1q_u32(k + t + 8)));
            w3 = vsha256su1q_u32(vsha256su0q_u32(w3, w0), w1, w2);
            four_rounds(&abcd, &efgh, vaddq_u32(w3, vld1q_u32(k + t + 12)));
        }
        abcd = vaddq_u32(abcd, saved_abcd);
        efgh = vaddq_u32(efgh, saved_efgh);
    }
    vst1q_u32(state, abcd);
    vst1q_u32(state + 4, efgh);
}

#endif
