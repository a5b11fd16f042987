package kubessa

import (
	"golang.org/x/tools/go/ssa"

	"github.com/ctrllint/ctrllint/analyzers/internal/kube"
)

// PatchUses are the instructions that use a patch value (the result of a
// client.MergeFrom-style call), through interface conversions: among them
// the Patch calls that send it (kube.IsPatchSender). patchbase and
// finalizerpatch pair a MergeFrom with its sends this way.
func PatchUses(v ssa.Value) []ssa.Instruction {
	var out []ssa.Instruction
	for _, ref := range *v.Referrers() {
		if conv, ok := ref.(*ssa.ChangeInterface); ok {
			out = append(out, PatchUses(conv)...)
			continue
		}
		out = append(out, ref)
	}
	return out
}

// SubresourcePatch reports whether a Patch call patches a subresource of
// controller-runtime's (Status().Patch, SubResource(...).Patch), where
// the API server takes only that subresource from the patch: the
// object's metadata and spec changed for it are not sent.
func SubresourcePatch(send ssa.CallInstruction) bool {
	common := send.Common()
	return common.IsInvoke() && (kube.Is(common.Value.Type(), kube.CRClientPkg, "SubResourceWriter") ||
		kube.Is(common.Value.Type(), kube.CRClientPkg, "StatusWriter"))
}
