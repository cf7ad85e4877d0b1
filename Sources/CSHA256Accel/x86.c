// SHA-256 on x86-64 with the SHA extensions (sha256rnds2, sha256msg1, sha256msg2).
//
// The instructions keep the eight working variables in two registers, ABEF and CDGH (A in the
// highest 32-bit lane), and do two rounds per sha256rnds2: the low two lanes of its third operand
// are W[t] + K[t] and W[t+1] + K[t+1]. sha256msg1 and sha256msg2 compute the message schedule four
// words at a time: msg1 adds sigma0 of the next words, the caller adds W[t-7], msg2 adds sigma1.
#if defined(__x86_64__) || defined(_M_X64)

#include "CSHA256Accel.h"
#include "internal.h"

#include <cpuid.h>
#include <immintrin.h>

#define CSHA256_X86_TARGET __attribute__((target("sha,sse4.1,ssse3")))

/// Whether CPUID reports SHA (leaf 7, EBX bit 29), SSE4.1 (leaf 1, ECX bit 19) and SSSE3 (bit 9).
static int detect(void) {
    unsigned int eax, ebx, ecx, edx;
    if (__get_cpuid_max(0, 0) < 7) return 0;
    if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx)) return 0;
    if (!(ecx & (1u << 19)) || !(ecx & (1u << 9))) return 0;
    __cpuid_count(7, 0, eax, ebx, ecx, edx);
    return (ebx & (1u << 29)) != 0;
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

/// Four rounds: `abef` and `cdgh` advance by the words of `wk` (W + K, lanes 0 to 3).
CSHA256_X86_TARGET static inline void four_rounds(__m128i *abef, __m128i *cdgh, __m128i wk) {
    // sha256rnds2 returns the new ABEF; the old ABEF becomes the new CDGH.
    *cdgh = _mm_sha256rnds2_epu32(*cdgh, *abef, wk);
    *abef = _mm_sha256rnds2_epu32(*abef, *cdgh, _mm_shuffle_epi32(wk, 0x0E));
}

/// The next four schedule words from the previous sixteen (w0 oldest ... w3 newest).
CSHA256_X86_TARGET static inline __m128i schedule(__m128i w0, __m128i w1, __m128i w2, __m128i w3) {
    __m128i partial = _mm_sha256msg1_epu32(w0, w1);           // W[t-16] + sigma0(W[t-15])
    partial = _mm_add_epi32(partial, _mm_alignr_epi8(w3, w2, 4));  // + W[t-7]
    return _mm_sha256msg2_epu32(partial, w3);                 // + sigma1(W[t-2])
}

CSHA256_X86_TARGET void csha256_compress(uint32_t state[8], const uint8_t *data, size_t blocks) {
    const __m128i byte_swap = _mm_set_epi64x(0x0c0d0e0f08090a0bLL, 0x0405060700010203LL);
    const uint32_t *k = csha256_round_constants;

    // h0..h3 and h4..h7 -> ABEF and CDGH.
    __m128i low = _mm_loadu_si128((const __m128i *)state);         // h3 h2 h1 h0 (high to low)
    __m128i high = _mm_loadu_si128((const __m128i *)(state + 4));  // h7 h6 h5 h4
    low = _mm_shuffle_epi32(low, 0xB1);                             // h2 h3 h0 h1
    high = _mm_shuffle_epi32(high, 0x1B);                           // h4 h5 h6 h7
    __m128i abef = _mm_alignr_epi8(low, high, 8);                   // h0 h1 h4 h5
    __m128i cdgh = _mm_blend_epi16(high, low, 0xF0);                // h2 h3 h6 h7

    for (size_t block = 0; block < blocks; block++, data += 64) {
        const __m128i saved_abef = abef, saved_cdgh = cdgh;
        __m128i w0 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)data), byte_swap);
        __m128i w1 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(data + 16)), byte_swap);
        __m128i w2 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(data + 32)), byte_swap);
        __m128i w3 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(data + 48)), byte_swap);

        four_rounds(&abef, &cdgh, _mm_add_epi32(w0, _mm_loadu_si128((const __m128i *)k)));
        four_rounds(&abef, &cdgh, _mm_add_epi32(w1, _mm_loadu_si128((const __m128i *)(k + 4))));
        four_rounds(&abef, &cdgh, _mm_add_epi32(w2, _mm_loadu_si128((const __m128i *)(k + 8))));
        four_rounds(&abef, &cdgh, _mm_add_epi32(w3, _mm_loadu_si128((const __m128i *)(k + 12))));
        // Rounds 16 to 63: the four newest schedule vectors roll through w0 ... w3.
        for (int t = 16; t < 64; t += 16) {
            w0 = schedule(w0, w1, w2, w3);
            four_rounds(&abef, &cdgh, _mm_add_epi32(w0, _mm_loadu_si128((const __m128i *)(k + t))));
            w1 = schedule(w1, w2, w3, w0);
            four_rounds(&abef, &cdgh, _mm_add_epi32(w1, _mm_loadu_si128((const __m128i *)(k + t + 4))));
            w2 = schedule(w2, w3, w0, w1);
            four_rounds(&abef, &cdgh, _mm_add_epi32(w2, _mm_loadu_si128((const __m128i *)(k + t + 8))));
            w3 = schedule(w3, w0, w1, w2);
            four_rounds(&abef, &cdgh, _mm_add_epi32(w3, _mm_loadu_si128((const __m128i *)(k + t + 12))));
        }
        abef = _mm_add_epi32(abef, saved_abef);
        cdgh = _mm_add_epi32(cdgh, saved_cdgh);
    }

    // ABEF and CDGH -> h0..h3 and h4..h7.
    __m128i feba = _mm_shuffle_epi32(abef, 0x1B);                   // h5 h4 h1 h0
    __m128i dchg = _mm_shuffle_epi32(cdgh, 0xB1);                   // h3 h2 h7 h6
    low = _mm_blend_epi16(feba, dchg, 0xF0);                        // h3 h2 h1 h0
    high = _mm_alignr_epi8(dchg, feba, 8);                          // h7 h6 h5 h4
    _mm_storeu_si128((__m128i *)state, low);
    _mm_storeu_si128((__m128i *)(state + 4), high);
}

#endif
