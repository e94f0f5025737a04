package main

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// maxFlagsByHand is how many flags cmd/strode may define itself. The
// commands are glue: their options belong in options structs of the library
// packages they front, with Register methods (decoder/gmm's EstOptions,
// features' ApplyCmvnOptions, ...), where the library's tests see them and
// other front ends can share them.
const maxFlagsByHand = 120

// flagDefiners are the flag.FlagSet methods that define a flag.
var flagDefiners = map[string]bool{
	"Var": true, "Func": true, "BoolFunc": true, "TextVar": true,
	"Bool": true, "BoolVar": true, "Int": true, "IntVar": true, "Int64": true, "Int64Var": true,
	"Uint": true, "UintVar": true, "Uint64": true, "Uint64Var": true, "String": true, "StringVar": true,
	"Float64": true, "Float64Var": true, "Duration": true, "DurationVar": true,
}

// TestFlagsByHand counts the flags cmd/strode's non-test files define by
// calling a *flag.FlagSet's methods directly, and fails over maxFlagsByHand.
func TestFlagsByHand(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	perFile := map[string]int{}
	total := 0
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		n, err := countFlagsByHand(name)
		if err != nil {
			t.Fatal(err)
		}
		perFile[name] = n
		total += n
	}
	if total > maxFlagsByHand {
		t.Errorf("cmd/strode defines %d flags by hand, more than %d; move them into options structs with Register methods in the library packages. Most: %s",
			total, maxFlagsByHand, most(perFile, 8))
	}
	t.Logf("%d flags by hand in %d files", total, len(perFile))
}

// countFlagsByHand counts the calls x.M(...) in a file where M defines a
// flag and x is a parameter or variable of type *flag.FlagSet (or the
// result of flag.NewFlagSet).
func countFlagsByHand(name string) (int, error) {
	src, err := os.ReadFile(name)
	if err != nil {
		return 0, err
	}
	f, err := parser.ParseFile(token.NewFileSet(), name, src, 0)
	if err != nil {
		return 0, err
	}
	flagPkg := "" // the name the file imports package flag under
	for _, im := range f.Imports {
		if im.Path.Value == `"flag"` {
			flagPkg = "flag"
			if im.Name != nil {
				flagPkg = im.Name.Name
			}
		}
	}
	if flagPkg == "" {
		return 0, nil
	}
	isFlagPkgSel := func(e ast.Expr, sel string) bool {
		s, ok := e.(*ast.SelectorExpr)
		if !ok || s.Sel.Name != sel {
			return false
		}
		id, ok := s.X.(*ast.Ident)
		return ok && id.Name == flagPkg
	}
	isFlagSetType := func(e ast.Expr) bool {
		star, ok := e.(*ast.StarExpr)
		return ok && isFlagPkgSel(star.X, "FlagSet")
	}
	sets := map[string]bool{}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.Field:
			if isFlagSetType(n.Type) {
				for _, id := range n.Names {
					sets[id.Name] = true
				}
			}
		case *ast.ValueSpec:
			if n.Type != nil && isFlagSetType(n.Type) {
				for _, id := range n.Names {
					sets[id.Name] = true
				}
			}
			for i, v := range n.Values {
				if c, ok := v.(*ast.CallExpr); ok && isFlagPkgSel(c.Fun, "NewFlagSet") && i < len(n.Names) {
					sets[n.Names[i].Name] = true
				}
			}
		case *ast.AssignStmt:
			for i, v := range n.Rhs {
				if c, ok := v.(*ast.CallExpr); ok && isFlagPkgSel(c.Fun, "NewFlagSet") && i < len(n.Lhs) {
					if id, ok := n.Lhs[i].(*ast.Ident); ok {
						sets[id.Name] = true
					}
				}
			}
		}
		return true
	})
	count := 0
	ast.Inspect(f, func(n ast.Node) bool {
		c, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		s, ok := c.Fun.(*ast.SelectorExpr)
		if !ok || !flagDefiners[s.Sel.Name] {
			return true
		}
		if id, ok := s.X.(*ast.Ident); ok && sets[id.Name] {
			count++
		}
		return true
	})
	return count, nil
}

// most lists the n files with the most flags, most first.
func most(perFile map[string]int, n int) string {
	names := make([]string, 0, len(perFile))
	for name, c := range perFile {
		if c > 0 {
			names = append(names, name)
		}
	}
	sort.Slice(names, func(i, j int) bool {
		if perFile[names[i]] != perFile[names[j]] {
			return perFile[names[i]] > perFile[names[j]]
		}
		return names[i] < names[j]
	})
	var parts []string
	for _, name := range names[:min(n, len(names))] {
		parts = append(parts, fmt.Sprintf("%s (%d)", name, perFile[name]))
	}
	return strings.Join(parts, ", ")
}
