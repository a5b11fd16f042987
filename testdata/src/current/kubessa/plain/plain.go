// Package plain cannot see the Kubernetes APIs: no SSA is built for it.
package plain // want `ssa: skipped`

import "fmt"

func Hello() { fmt.Println("hello") }
