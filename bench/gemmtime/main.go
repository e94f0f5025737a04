// Command gemmtime times strode's float32 matrix multiply (internal/gemm) and
// gonum's on the same shapes, for bench/gemm.sh, which runs OpenBLAS beside
// it and prints the ratios.
//
//	go run ./bench/gemmtime -impl strode -threads 1 -reps 5 1024x1024x1024 4000x256x768
//
// Each shape is m×k×n: C (m×n) = A (m×k) · B (k×n), row-major, alpha 1,
// beta 0. After one untimed call it times -reps calls and prints
//
//	RESULT IMPL MxKxN THREADS MEDIAN_GFLOPS MIN MAX
//
// With -paired (and -threads N > 1) each rep is a one-thread call and an
// N-thread call back to back, in alternating order, and it also prints every
// pair's speed-up,
//
//	PAIR IMPL MxKxN N RATIO
//
// On a VM whose cores' speed drifts with its neighbours' load, one-thread and
// two-thread runs seconds apart can differ by 2× for reasons of their own;
// pairs a few milliseconds apart see the same machine.
package main

import (
	"flag"
	"fmt"
	"log"
	"math/rand/v2"
	"os"
	"runtime"
	"slices"
	"time"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"

	"github.com/strode-asr/strode/internal/gemm"
)

func main() {
	impl := flag.String("impl", "strode", "strode, or gonum")
	kernel := flag.String("kernel", "", "strode kernel (default: the best this CPU has; see -list)")
	threads := flag.Int("threads", 1, "threads (GOMAXPROCS and gemm.SetThreads)")
	reps := flag.Int("reps", 5, "timed calls per shape")
	paired := flag.Bool("paired", false, "time 1-thread and -threads calls in alternating pairs and print each pair's speed-up")
	list := flag.Bool("list", false, "print the kernels this CPU can run and exit")
	flag.Parse()
	log.SetFlags(0)
	log.SetPrefix("gemm: ")
	if *list {
		fmt.Println(gemm.Kernels())
		return
	}
	runtime.GOMAXPROCS(*threads)
	gemm.SetThreads(*threads)
	if *kernel != "" {
		if _, err := gemm.SetKernel(*kernel); err != nil {
			log.Fatal(err)
		}
	}
	var sgemm func(tA, tB blas.Transpose, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int)
	label := *impl
	switch *impl {
	case "strode":
		sgemm = gemm.Implementation{}.Sgemm
		label = "strode-" + gemm.Kernel()
	case "gonum":
		sgemm = gonum.Implementation{}.Sgemm
	default:
		log.Fatalf("unknown -impl %q", *impl)
	}
	rng := rand.New(rand.NewPCG(1, 1))
	for _, shape := range flag.Args() {
		var m, k, n int
		if _, err := fmt.Sscanf(shape, "%dx%dx%d", &m, &k, &n); err != nil || m < 1 || k < 1 || n < 1 {
			log.Fatalf("shape %q: want MxKxN with positive sizes", shape)
		}
		a, b, c := random(rng, m*k), random(rng, k*n), make([]float32, m*n)
		call := func() { sgemm(blas.NoTrans, blas.NoTrans, m, n, k, 1, a, k, b, n, 0, c, n) }
		flops := 2 * float64(m) * float64(n) * float64(k)
		timed := func(t int) float64 {
			if *impl == "gonum" {
				// gonum's threads follow GOMAXPROCS. Ours are
				// goroutines under GOMAXPROCS = -threads throughout,
				// as in a program that uses them: changing it starts
				// and stops the runtime's threads, which a pair of
				// millisecond calls would time.
				runtime.GOMAXPROCS(t)
			}
			gemm.SetThreads(t)
			t0 := time.Now()
			call()
			return flops / time.Since(t0).Seconds() / 1e9
		}
		call()
		shape := fmt.Sprintf("%dx%dx%d", m, k, n)
		if !*paired || *threads < 2 {
			g := make([]float64, max(1, *reps))
			for r := range g {
				g[r] = timed(*threads)
			}
			printResult(label, shape, *threads, g)
			continue
		}
		one, many := make([]float64, max(1, *reps)), make([]float64, max(1, *reps))
		for r := range one {
			if r%2 == 0 {
				one[r], many[r] = timed(1), timed(*threads)
			} else {
				many[r], one[r] = timed(*threads), timed(1)
			}
			fmt.Printf("PAIR %s %s %d %.3f\n", label, shape, *threads, many[r]/one[r])
		}
		printResult(label, shape, 1, one)
		printResult(label, shape, *threads, many)
	}
	os.Exit(0)
}

// printResult prints the RESULT line of the speeds g (GFLOP/s); it sorts g.
func printResult(label, shape string, threads int, g []float64) {
	slices.Sort(g)
	med := g[len(g)/2]
	if len(g)%2 == 0 {
		med = (g[len(g)/2-1] + g[len(g)/2]) / 2
	}
	fmt.Printf("RESULT %s %s %d %.2f %.2f %.2f\n", label, shape, threads, med, g[0], g[len(g)-1])
}

func random(rng *rand.Rand, n int) []float32 {
	s := make([]float32, n)
	for i := range s {
		s[i] = rng.Float32() - 0.5
	}
	return s
}
