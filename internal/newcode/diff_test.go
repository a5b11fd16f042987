package newcode

import (
	"reflect"
	"strings"
	"testing"
)

func TestParseDiff(t *testing.T) {
	for _, tc := range []struct {
		name string
		diff string
		want []FileDiff
	}{{
		name: "lines added after line a: @@ -a,0 +b,c @@",
		diff: `diff --git a/f.go b/f.go
index 1111111..2222222 100644
--- a/f.go
+++ b/f.go
@@ -3,0 +4,2 @@ func F() {
+	x()
+	y()
@@ -10 +12 @@ func G() {
-	old()
+	new()
`,
		want: []FileDiff{{Path: "f.go", Added: []Span{{4, 5}, {12, 12}}, Removed: []int{11}}},
	}, {
		name: "lines removed only: @@ -a,b +c,0 @@ is after line c",
		diff: `diff --git a/f.go b/f.go
--- a/f.go
+++ b/f.go
@@ -5,2 +4,0 @@ func F() {
-	defer q.Done(key)
-	log()
@@ -1 +0,0 @@
-// first line
`,
		want: []FileDiff{{Path: "f.go", Removed: []int{0, 4}}},
	}, {
		name: "no newline at end of file, in either version",
		diff: `diff --git a/nonl.go b/nonl.go
--- a/nonl.go
+++ b/nonl.go
@@ -3 +3,2 @@ b
-c
\ No newline at end of file
+c
+d
\ No newline at end of file
diff --git a/g.go b/g.go
--- a/g.go
+++ b/g.go
@@ -1,0 +2 @@
+x
`,
		want: []FileDiff{
			{Path: "nonl.go", Added: []Span{{3, 4}}, Removed: []int{2}},
			{Path: "g.go", Added: []Span{{2, 2}}},
		},
	}, {
		name: "binary files, pure renames and mode changes have no lines",
		diff: `diff --git a/b.bin b/b.bin
index 87ae6b6..22f6b3b 100644
Binary files a/b.bin and b/b.bin differ
diff --git a/ren.go b/ren2.go
similarity index 100%
rename from ren.go
rename to ren2.go
diff --git a/x.sh b/x.sh
old mode 100644
new mode 100755
diff --git a/moved.go b/moved2.go
similarity index 80%
rename from moved.go
rename to moved2.go
--- a/moved.go
+++ b/moved2.go
@@ -2 +2 @@
-a
+b
`,
		want: []FileDiff{{Path: "moved2.go", Added: []Span{{2, 2}}, Removed: []int{1}}},
	}, {
		name: "a deleted file: +++ /dev/null",
		diff: `diff --git a/del.go b/del.go
deleted file mode 100644
index abaddc0..0000000
--- a/del.go
+++ /dev/null
@@ -1,2 +0,0 @@
-package del
-
diff --git a/new.go b/new.go
new file mode 100644
--- /dev/null
+++ b/new.go
@@ -0,0 +1,2 @@
+package new
+
`,
		want: []FileDiff{{Path: "new.go", Added: []Span{{1, 2}}}},
	}, {
		name: "file names with spaces (git ends them with a tab) and quoted ones",
		diff: "diff --git a/sp ace.go b/sp ace.go\n" +
			"--- a/sp ace.go\t\n" +
			"+++ b/sp ace.go\t\n" +
			"@@ -1,0 +2 @@ x\n" +
			"+y\n" +
			`diff --git "a/\303\251 \"q\".go" "b/\303\251 \"q\".go"` + "\n" +
			`--- "a/\303\251 \"q\".go"` + "\n" +
			`+++ "b/\303\251 \"q\".go"` + "\n" +
			"@@ -1,0 +2 @@\n" +
			"+è\n",
		want: []FileDiff{
			{Path: "sp ace.go", Added: []Span{{2, 2}}},
			{Path: `é "q".go`, Added: []Span{{2, 2}}},
		},
	}, {
		name: "lines that look like headers inside a hunk",
		diff: `diff --git a/f.go b/f.go
--- a/f.go
+++ b/f.go
@@ -2,2 +2,3 @@
--- a/removed.go
-@@ -1 +1 @@
+++ b/added.go
+@@ -9 +9 @@
+diff --git a/x b/x
`,
		want: []FileDiff{{Path: "f.go", Added: []Span{{2, 4}}, Removed: []int{1}}},
	}, {
		name: "context lines (GIT_DIFF_OPTS or diff.context can add them)",
		diff: `diff --git a/f.go b/f.go
--- a/f.go
+++ b/f.go
@@ -1,4 +1,4 @@
 package f
-var a = 1
+var a = 2
 var b = 1
 var c = 1
@@ -10,3 +10,4 @@ x
 x
 y
+z
 w
`,
		want: []FileDiff{{Path: "f.go", Added: []Span{{2, 2}, {12, 12}}, Removed: []int{1}}},
	}, {
		name: "no final newline in the diff itself",
		diff: "diff --git a/f.go b/f.go\n--- a/f.go\n+++ b/f.go\n@@ -1,0 +2 @@\n+x",
		want: []FileDiff{{Path: "f.go", Added: []Span{{2, 2}}}},
	}, {
		name: "nothing changed",
		diff: "",
		want: []FileDiff{},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ParseDiff(strings.NewReader(tc.diff))
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got  %+v\nwant %+v", got, tc.want)
			}
		})
	}
}

func TestParseDiffErrors(t *testing.T) {
	for _, tc := range []struct {
		name, diff, want string
	}{
		{"hunk cut short", "diff --git a/f b/f\n--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n-a\n+b\n", "diff ends inside a hunk (1 old and 1 new lines missing)"},
		{"garbage in a hunk", "diff --git a/f b/f\n--- a/f\n+++ b/f\n@@ -1 +1 @@\n-a\nzzz\n", `diff line 6: hunk ends early (0 old and 1 new lines missing): "zzz"`},
		{"bad hunk header", "diff --git a/f b/f\n--- a/f\n+++ b/f\n@@ -x +1 @@\n", `diff line 4: unexpected hunk header "@@ -x +1 @@"`},
		{"hunk before any file", "@@ -1 +1 @@\n-a\n+b\n", "diff line 1: unexpected hunk header"},
		{"added lines without +++", "diff --git a/f b/f\n@@ -0,0 +1 @@\n+a\n", "diff line 2: hunk adds lines to a file without a +++ header"},
		{"no b/ prefix", "diff --git f f\n--- f\n+++ f\n", `diff line 3: file name "f" does not start with the prefix b/`},
		{"unterminated quote", "diff --git a/f b/f\n--- a/f\n+++ \"b/f\n", "diff line 3: unterminated quoted file name"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseDiff(strings.NewReader(tc.diff))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want it to contain %q", err, tc.want)
			}
		})
	}
}

func TestLines(t *testing.T) {
	l := &lines{added: []Span{{4, 5}, {12, 12}}, removed: []int{0, 8}}
	for _, tc := range []struct {
		from, to       int
		added, touched bool
	}{
		{1, 3, false, false}, // removed before line 1: not between two of these lines
		{1, 4, true, true},
		{5, 5, true, true},
		{6, 8, false, false}, // removed after line 8: past the range
		{6, 9, false, true},
		{8, 9, false, true},
		{9, 11, false, false},
		{11, 20, true, true},
		{13, 20, false, false},
	} {
		if got := l.addedIn(tc.from, tc.to); got != tc.added {
			t.Errorf("addedIn(%d, %d) = %v", tc.from, tc.to, got)
		}
		if got := l.addedIn(tc.from, tc.to) || l.removedIn(tc.from, tc.to); got != tc.touched {
			t.Errorf("touched(%d, %d) = %v", tc.from, tc.to, got)
		}
	}
	if w := (&lines{whole: true}); !w.addedIn(1, 1) {
		t.Error("an untracked file's line is not added")
	}
}
