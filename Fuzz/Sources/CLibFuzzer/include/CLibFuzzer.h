#ifndef CLIBFUZZER_H
#define CLIBFUZZER_H

#include <stddef.h>
#include <stdint.h>

/// One run of a fuzz target over one input; returns 0.
typedef int (*CLibFuzzerCallback)(const uint8_t *data, size_t size);

/// libFuzzer's entry point for programs with their own main (compiler-rt's FuzzerDriver.cpp).
int LLVMFuzzerRunDriver(int *argc, char ***argv, CLibFuzzerCallback callback);

#endif
