package pinned

import (
	"strings"
	"testing"

	"golang.org/x/mod/modfile"
)

func TestWrapperGoMod(t *testing.T) {
	pinned, err := modfile.Parse("go.mod", []byte(`module k8s.io/kubernetes
go 1.26.0
require k8s.io/api v0.0.0
replace (
	k8s.io/api => ./staging/src/k8s.io/api
	github.com/x/client => ./client
	github.com/y/z => github.com/y/z v1.2.3
	github.com/w/v => ./v
)
`), nil)
	if err != nil {
		t.Fatal(err)
	}
	e := Entry{Name: "kubernetes", Module: "k8s.io/kubernetes", Version: "v1.37.2", Staging: "v0.37.2",
		Replace: map[string]string{"github.com/w/v": "v0.9.0"}, Stubs: []string{"vbom.ml/util"}}
	out, err := wrapperGoMod(e, pinned, "1.25")
	if err != nil {
		t.Fatal(err)
	}
	got := string(out)
	for _, want := range []string{
		"module ctrllint.corpus/kubernetes",
		"go 1.26.0",
		"require k8s.io/kubernetes v1.37.2",
		"k8s.io/api => k8s.io/api v0.37.2",
		"github.com/y/z => github.com/y/z v1.2.3",
		"github.com/w/v => github.com/w/v v0.9.0",
		"vbom.ml/util => ./stubs/vbom.ml/util",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("wrapper go.mod lacks %q:\n%s", want, got)
		}
	}
	if strings.Count(got, "./") != 1 {
		t.Errorf("wrapper go.mod keeps a local replace:\n%s", got)
	}
}

func TestPlaceFile(t *testing.T) {
	mc, gr := "/m", "/g"
	for in, want := range map[string]string{
		"/m/github.com/!azure/go-autorest@v1.2.3/pkg/a.go": "github.com/Azure/go-autorest@v1.2.3/pkg/a.go",
		"/g/src/net/http/server.go":                        "std/net/http/server.go",
	} {
		if got := PlaceFile(in, "/d", mc, gr); got != want {
			t.Errorf("PlaceFile(%s) = %s, want %s", in, got, want)
		}
	}
}
