package edit

import (
	"go/ast"
	"go/token"
	"go/types"
	"strconv"

	"golang.org/x/tools/go/analysis"
)

// TypeName is how a message or a fix at pos writes type t: qualified by
// the name pos's file imports its package as (corev1.Secret, appsv1.Deployment),
// by the package's own name when the file does not import it, and not at
// all in the analysed package.
func TypeName(pass *analysis.Pass, pos token.Pos, t types.Type) string {
	var file *ast.File
	for _, f := range pass.Files {
		if f.FileStart <= pos && pos <= f.FileEnd {
			file = f
		}
	}
	return types.TypeString(t, func(other *types.Package) string {
		if other == pass.Pkg {
			return ""
		}
		if file != nil {
			for _, spec := range file.Imports {
				if path, err := strconv.Unquote(spec.Path.Value); err == nil && path == other.Path() && spec.Name != nil {
					return spec.Name.Name
				}
			}
		}
		return other.Name()
	})
}
