package load

import (
	"bufio"
	"os"
	"regexp"
	"strings"

	"golang.org/x/tools/go/packages"
)

// generatedHeader is the convention of https://go.dev/s/generatedcode.
var generatedHeader = regexp.MustCompile(`^// Code generated .* DO NOT EDIT\.$`)

// MostlyGenerated reports whether most of p's Go source, by size, is in
// generated files (conversions, defaults, deep copies, clients): such a
// package holds what generators write, not the helpers a controller
// calls. A file that cannot be read counts as written by hand.
func MostlyGenerated(p *packages.Package) bool {
	var generated, total int64
	for _, name := range p.GoFiles {
		st, err := os.Stat(name)
		if err != nil {
			continue
		}
		total += st.Size()
		if isGenerated(name) {
			generated += st.Size()
		}
	}
	return total > 0 && 2*generated > total
}

// isGenerated reads the comments before the package clause.
func isGenerated(name string) bool {
	f, err := os.Open(name)
	if err != nil {
		return false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if generatedHeader.MatchString(line) {
			return true
		}
		if strings.HasPrefix(line, "package ") {
			return false
		}
	}
	return false
}
