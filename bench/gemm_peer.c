/* gemm_peer: OpenBLAS cblas_sgemm timed the way bench/gemm/main.go times
 * strode, for bench/gemm.sh. Built at bench time, never committed.
 *
 *   gemm_peer LABEL REPS M K N [M K N ...]
 *
 * For each shape (C = A·B, A m×k, B k×n, row-major, alpha 1, beta 0) it runs
 * one untimed call, then REPS timed calls, and prints
 *   RESULT LABEL MxKxN THREADS MEDIAN_GFLOPS MIN MAX
 * Threads and kernel come from OPENBLAS_NUM_THREADS and OPENBLAS_CORETYPE.
 *
 * With PAIRED=N in the environment each rep is a one-thread call and an
 * N-thread call back to back (alternating order, as bench/gemm -paired), and
 * it prints both RESULT lines and every pair's speed-up,
 *   PAIR LABEL MxKxN N RATIO */
#include <cblas.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

extern char *openblas_get_corename(void);
extern int openblas_get_num_threads(void);
extern void openblas_set_num_threads(int);

static double now(void) {
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

static double timed(int threads, int m, int n, int k, const float *a, const float *b, float *c) {
	if (threads > 0) openblas_set_num_threads(threads);
	double t0 = now();
	cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, k, 1, a, k, b, n, 0, c, n);
	return 2.0 * m * n * k / (now() - t0) / 1e9;
}

static int cmp(const void *a, const void *b) {
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static void print_result(const char *label, int m, int k, int n, int threads, double *g, int reps) {
	qsort(g, reps, sizeof(double), cmp);
	double med = reps % 2 ? g[reps / 2] : 0.5 * (g[reps / 2 - 1] + g[reps / 2]);
	printf("RESULT %s %dx%dx%d %d %.2f %.2f %.2f\n", label, m, k, n, threads, med, g[0], g[reps - 1]);
}

int main(int argc, char **argv) {
	if (argc < 6 || (argc - 3) % 3 != 0) {
		fprintf(stderr, "usage: gemm_peer LABEL REPS M K N [M K N ...]\n");
		return 2;
	}
	const char *label = argv[1];
	int reps = atoi(argv[2]);
	if (reps < 1) reps = 1;
	int paired = getenv("PAIRED") ? atoi(getenv("PAIRED")) : 0;
	fprintf(stderr, "openblas core %s, %d threads\n", openblas_get_corename(), openblas_get_num_threads());
	srand(1);
	for (int s = 3; s < argc; s += 3) {
		int m = atoi(argv[s]), k = atoi(argv[s + 1]), n = atoi(argv[s + 2]);
		float *a = malloc(sizeof(float) * (size_t)m * k);
		float *b = malloc(sizeof(float) * (size_t)k * n);
		float *c = malloc(sizeof(float) * (size_t)m * n);
		for (size_t i = 0; i < (size_t)m * k; i++) a[i] = (float)rand() / RAND_MAX - 0.5f;
		for (size_t i = 0; i < (size_t)k * n; i++) b[i] = (float)rand() / RAND_MAX - 0.5f;
		double *g = malloc(sizeof(double) * reps), *g1 = malloc(sizeof(double) * reps);
		timed(0, m, n, k, a, b, c);
		for (int r = 0; r < reps; r++) {
			if (paired < 2) {
				g[r] = timed(0, m, n, k, a, b, c);
				continue;
			}
			if (r % 2 == 0) {
				g1[r] = timed(1, m, n, k, a, b, c);
				g[r] = timed(paired, m, n, k, a, b, c);
			} else {
				g[r] = timed(paired, m, n, k, a, b, c);
				g1[r] = timed(1, m, n, k, a, b, c);
			}
			printf("PAIR %s %dx%dx%d %d %.3f\n", label, m, k, n, paired, g[r] / g1[r]);
		}
		if (paired >= 2) print_result(label, m, k, n, 1, g1, reps);
		print_result(label, m, k, n, paired >= 2 ? paired : openblas_get_num_threads(), g, reps);
		fflush(stdout);
		free(a); free(b); free(c); free(g); free(g1);
	}
	return 0;
}
