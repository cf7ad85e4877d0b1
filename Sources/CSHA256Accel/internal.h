// Shared between the back ends of CSHA256Accel; not part of its interface.
#ifndef CSHA256_ACCEL_INTERNAL_H
#define CSHA256_ACCEL_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

extern const uint32_t csha256_round_constants[64];

#endif
