/* fuzz.h: every fuzz target defines this libFuzzer entry point. The same file
 * builds as a libFuzzer program (clang, tests/fuzz/run.sh) and, linked with
 * replay_main.c, as a program that replays a corpus in the ordinary test run. */
#ifndef SEAWX_FUZZ_H
#define SEAWX_FUZZ_H

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#endif
