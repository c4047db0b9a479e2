// The arithmetic ceiling of one core with 128-bit vectors (WebAssembly SIMD's width): 12 independent
// chains of fused multiply-adds on 4 float32 lanes (_mm_fmadd_ps), enough to hide the FMA's latency.
// Built and run by bench/train-kernel.ts where a C compiler is found: `cc -O2 -mfma`. Prints
// G multiply-adds/s of the thread's CPU time (best of 3; a loaded machine's waits are not counted).
#include <immintrin.h>
#include <stdio.h>
#include <time.h>

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}

int main(void) {
  const long iterations = 100000000;
  double best = 0;
  float sink = 0;
  for (int round = 0; round < 3; round++) {
    __m128 acc[12];
    for (int j = 0; j < 12; j++) acc[j] = _mm_set1_ps((float)j * 1e-3f);
    const __m128 a = _mm_set1_ps(0.999999f), b = _mm_set1_ps(1e-7f);
    double t0 = now();
    for (long i = 0; i < iterations; i++) {
#pragma GCC unroll 12
      for (int j = 0; j < 12; j++) acc[j] = _mm_fmadd_ps(acc[j], a, b);
    }
    double s = now() - t0;
    for (int j = 0; j < 12; j++) sink += _mm_cvtss_f32(acc[j]);
    double g = iterations * 12.0 * 4.0 / s / 1e9;
    if (g > best) best = g;
  }
  printf("%.2f %g\n", best, (double)sink);
  return 0;
}
