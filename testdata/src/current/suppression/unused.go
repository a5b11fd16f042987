/* want `ctrllint:file-ignore directive for suppression suppresses nothing: remove it` */ //ctrllint:file-ignore suppression nothing here is mistyped any more

package suppression

var clean = 1
