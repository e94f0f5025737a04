package gemm

import (
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas32"
	"gonum.org/v1/gonum/blas/gonum"
	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// TestInstallGorgonia proves that after Install a gorgonia graph's MatMul,
// and blas32.Gemm, reach Implementation.Sgemm and give the right product.
func TestInstallGorgonia(t *testing.T) {
	Install()
	t.Cleanup(func() {
		blas32.Use(gonum.Implementation{})
		gorgonia.Use(gonum.Implementation{})
	})
	if _, ok := tensor.WhichBLAS().(Implementation); !ok {
		t.Fatalf("tensor uses %T", tensor.WhichBLAS())
	}
	if _, ok := gorgonia.WhichBLAS().(Implementation); !ok {
		t.Fatalf("gorgonia uses %T", gorgonia.WhichBLAS())
	}

	// [[1 2 3] [4 5 6]] · [[1 0] [0 1] [1 1]] = [[4 5] [10 11]]
	g := gorgonia.NewGraph()
	x := gorgonia.NewMatrix(g, tensor.Float32, gorgonia.WithShape(2, 3), gorgonia.WithName("x"),
		gorgonia.WithValue(tensor.New(tensor.WithShape(2, 3), tensor.WithBacking([]float32{1, 2, 3, 4, 5, 6}))))
	w := gorgonia.NewMatrix(g, tensor.Float32, gorgonia.WithShape(3, 2), gorgonia.WithName("w"),
		gorgonia.WithValue(tensor.New(tensor.WithShape(3, 2), tensor.WithBacking([]float32{1, 0, 0, 1, 1, 1}))))
	y, err := gorgonia.Mul(x, w)
	if err != nil {
		t.Fatal(err)
	}
	vm := gorgonia.NewTapeMachine(g)
	defer vm.Close()
	before := sgemmCalls.Load()
	if err := vm.RunAll(); err != nil {
		t.Fatal(err)
	}
	if calls := sgemmCalls.Load() - before; calls < 1 {
		t.Errorf("graph MatMul made %d calls to our Sgemm", calls)
	}
	got := y.Value().Data().([]float32)
	want := []float32{4, 5, 10, 11}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("graph MatMul = %v, want %v", got, want)
		}
	}

	before = sgemmCalls.Load()
	c := blas32.General{Rows: 1, Cols: 1, Stride: 1, Data: []float32{0}}
	a := blas32.General{Rows: 1, Cols: 2, Stride: 2, Data: []float32{3, 4}}
	b := blas32.General{Rows: 2, Cols: 1, Stride: 1, Data: []float32{5, 6}}
	if _, ok := blas32.Implementation().(Implementation); !ok {
		t.Fatalf("blas32 uses %T", blas32.Implementation())
	}
	blas32.Gemm(blas.NoTrans, blas.NoTrans, 1, a, b, 0, c)
	if sgemmCalls.Load()-before != 1 || c.Data[0] != 39 {
		t.Errorf("blas32.Gemm: %d calls, C = %v, want 1 call, 39", sgemmCalls.Load()-before, c.Data[0])
	}
}
