/* gemm_peer: OpenBLAS cblas_sgemm timed the way bench/gemm/main.go times
 * strode, for bench/gemm.sh. Built at bench time, never committed.
 *
 *   gemm_peer LABEL REPS M K N [M K N ...]
 *
 * For each shape (C = A·B, A m×k, B k×n, row-major, alpha 1, beta 0) it runs
 * one untimed call, then REPS timed calls, and prints
 *   RESULT LABEL MxKxN THREADS MEDIAN_GFLOPS MIN MAX
 * Threads and kernel come from OPENBLAS_NUM_THREADS and OPENBLAS_CORETYPE. */
#include <cblas.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

extern char *openblas_get_corename(void);
extern int openblas_get_num_threads(void);

static double now(void) {
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

static int cmp(const void *a, const void *b) {
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

int main(int argc, char **argv) {
	if (argc < 6 || (argc - 3) % 3 != 0) {
		fprintf(stderr, "usage: gemm_peer LABEL REPS M K N [M K N ...]\n");
		return 2;
	}
	const char *label = argv[1];
	int reps = atoi(argv[2]);
	if (reps < 1) reps = 1;
	fprintf(stderr, "openblas core %s, %d threads\n", openblas_get_corename(), openblas_get_num_threads());
	srand(1);
	for (int s = 3; s < argc; s += 3) {
		int m = atoi(argv[s]), k = atoi(argv[s + 1]), n = atoi(argv[s + 2]);
		float *a = malloc(sizeof(float) * (size_t)m * k);
		float *b = malloc(sizeof(float) * (size_t)k * n);
		float *c = malloc(sizeof(float) * (size_t)m * n);
		for (size_t i = 0; i < (size_t)m * k; i++) a[i] = (float)rand() / RAND_MAX - 0.5f;
		for (size_t i = 0; i < (size_t)k * n; i++) b[i] = (float)rand() / RAND_MAX - 0.5f;
		double *g = malloc(sizeof(double) * reps);
		double flops = 2.0 * m * n * k;
		cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, k, 1, a, k, b, n, 0, c, n);
		for (int r = 0; r < reps; r++) {
			double t0 = now();
			cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, k, 1, a, k, b, n, 0, c, n);
			g[r] = flops / (now() - t0) / 1e9;
		}
		qsort(g, reps, sizeof(double), cmp);
		double med = reps % 2 ? g[reps / 2] : 0.5 * (g[reps / 2 - 1] + g[reps / 2]);
		printf("RESULT %s %dx%dx%d %d %.2f %.2f %.2f\n", label, m, k, n, openblas_get_num_threads(), med, g[0], g[reps - 1]);
		fflush(stdout);
		free(a); free(b); free(c); free(g);
	}
	return 0;
}
