// Package suppression defines an Analyzer that reports ctrllint suppression
// directives that suppress nothing because they are mistyped.
//
// # Analyzer suppression
//
// suppression: report mistyped ctrllint suppression directives, which silently suppress nothing
//
// Each analyzer honours the directives that name it (docs/README.md,
// "Suppressing a finding") and reports its own directives that lack a
// reason or suppress nothing. A directive that names no analyzer of the
// suite, or that is not a directive at all, is seen by none of them: the
// finding it was meant to silence is still reported, but nothing says why
// the directive did not work, and a directive written before the finding
// appears silently protects nothing. This analyzer checks every comment of
// the package that looks like a ctrllint directive and reports:
//
//   - a name that is no analyzer of the suite (`//ctrllint:ignore nosuch
//     why`, `Tombstone`, the unknown half of `tombstone,nosuch`), suggesting
//     the analyzer meant when the name is a case or a typo away from one;
//   - a directive that names no analyzer at all (a bare `//ctrllint:ignore`);
//   - comments that look like a directive but are not one by the Go
//     toolchain's convention for directives (`//go:generate`, `//nolint`):
//     a space after `//` (`// ctrllint:ignore`), a block comment
//     (`/*ctrllint:ignore ...*/`), capital letters (`//CtrlLint:ignore`,
//     `//ctrllint:Ignore`) and unknown verbs (`//ctrllint:ignor`).
//
// A directive that names a known analyzer but gives no reason, or that
// suppresses nothing, is reported by that analyzer, not here.
//
// # Wrong
//
//	pod := obj.(*v1.Pod) // ctrllint:ignore Tombstone the fake informer never re-lists
//
// # Right
//
//	pod := obj.(*v1.Pod) //ctrllint:ignore tombstone the fake informer never re-lists
//
// # Fix
//
// Write the directive as the message says: `//ctrllint:ignore` or
// `//ctrllint:file-ignore`, no space after `//`, in lower case, followed by
// analyzer names as `ctrllint -list` prints them, separated by commas, and
// a reason. `-explain NAME` documents each analyzer.
//
// # Suppress
//
//	//ctrllint:file-ignore suppression this file documents mistyped directives
//
// Only for a whole file, with a reason (for a file that shows mistyped
// directives on purpose): a line directive naming suppression is reported,
// since the comment it would silence is usually the directive itself. A
// `file-ignore` of suppression without a reason, or one that suppresses
// nothing, is reported and cannot be silenced.
//
// # Not reported
//
//   - comments that mention ctrllint in prose or quote a directive after
//     other text (`//	x := 1 //ctrllint:ignore ...` in a doc comment);
//   - `// ctrllint: ...` and `//CtrlLint:...` followed by a word that is
//     not close to a directive's verb;
//   - generated files (`// Code generated ... DO NOT EDIT.`), whose
//     findings are not reported either.
package suppression

import _ "embed"

// DocSource is this file: the single source of the analyzer's documentation.
//
//go:embed doc.go
var DocSource string
