// The declaration is all this target provides; libFuzzer's runtime defines the function.
#include "CLibFuzzer.h"
