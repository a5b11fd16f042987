package main

import (
	"os"
	"path/filepath"
	"testing"
)

func TestFuncSpan(t *testing.T) {
	src := `package p

type C struct{}
type G[T any] struct{}

func f() {}

func (c *C) sync(key string) error {
	go func() {
	}()
	return nil
}

func (C) value() {}

func (g *G[T]) run() {}
`
	file := filepath.Join(t.TempDir(), "p.go")
	if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		function string
		want     span
	}{
		{"f", span{6, 6}},
		{"(*C).sync", span{8, 12}},
		{"(*C).sync$1", span{9, 10}},
		{"C.sync", span{8, 12}},
		{"C.value", span{14, 14}},
		{"(*G).run", span{16, 16}},
	} {
		got, err := funcSpan(file, c.function)
		if err != nil || got != c.want {
			t.Errorf("funcSpan(%s) = %v, %v; want %v", c.function, got, err, c.want)
		}
	}
	for _, missing := range []string{"sync", "(*D).sync", "g", "(*C).sync$2"} {
		if _, err := funcSpan(file, missing); err == nil {
			t.Errorf("funcSpan(%s) found a function", missing)
		}
	}
}
