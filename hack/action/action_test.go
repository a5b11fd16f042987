// Package action tests the GitHub Action at the repository root
// (action.yml): its steps' scripts, here, are run on a fixture repository
// as the runner would run them (sim_test.go), and docs/ci.md's tables of
// its inputs and outputs are checked against it.
package action

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// root is the repository root: the action's checkout, GITHUB_ACTION_PATH.
var root = func() string {
	dir, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		panic(err)
	}
	return dir
}()

// action is what the test reads of action.yml.
type action struct {
	Name        string
	Description string
	Author      string
	Branding    map[string]string
	Inputs      ordered[input]
	Outputs     ordered[output]
	Runs        struct {
		Using string
		Steps []step
	}
}

type input struct {
	Description string
	Default     string
	Required    bool
}

type output struct {
	Description string
	Value       string
}

type step struct {
	ID    string
	If    string
	Uses  string
	Run   string
	Shell string
	With  map[string]string
	Env   map[string]string
}

// ordered is a YAML mapping with its keys in the file's order, which the
// docs' tables follow.
type ordered[T any] struct {
	Names []string
	Map   map[string]T
}

func (o *ordered[T]) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind != yaml.MappingNode {
		return fmt.Errorf("line %d: want a mapping", n.Line)
	}
	o.Map = make(map[string]T)
	for i := 0; i+1 < len(n.Content); i += 2 {
		var v T
		if err := n.Content[i+1].Decode(&v); err != nil {
			return err
		}
		name := n.Content[i].Value
		o.Names = append(o.Names, name)
		o.Map[name] = v
	}
	return nil
}

func readAction(t *testing.T) *action {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(root, "action.yml"))
	if err != nil {
		t.Fatal(err)
	}
	var a action
	dec := yaml.NewDecoder(strings.NewReader(string(data)))
	dec.KnownFields(true)
	if err := dec.Decode(&a); err != nil {
		t.Fatalf("action.yml: %v", err)
	}
	return &a
}

// runScript is the one form a run step takes: a script of hack/action,
// which the runner finds through GITHUB_ACTION_PATH.
var runScript = regexp.MustCompile(`^"\$GITHUB_ACTION_PATH/(hack/action/[\w.-]+\.sh)"$`)

// scriptOutputs are the outputs a script writes (lib.sh's output and
// output_lines).
var scriptOutputs = regexp.MustCompile(`(?m)^\s*output(?:_lines)? ([\w-]+) `)

// usesOutputs are the outputs of the actions action.yml uses that it reads.
var usesOutputs = map[string][]string{
	"actions/cache/restore@v4":             {"cache-hit", "cache-primary-key", "cache-matched-key"},
	"actions/cache/save@v4":                nil,
	"github/codeql-action/upload-sarif@v3": {"sarif-id"},
}

var (
	exprRE       = regexp.MustCompile(`\$\{\{\s*(.*?)\s*\}\}`)
	inputRefRE   = regexp.MustCompile(`\binputs\.([\w-]+)`)
	stepOutRefRE = regexp.MustCompile(`\bsteps\.([\w-]+)\.outputs\.([\w-]+)`)
)

// TestActionFile: action.yml is a composite action whose run steps are
// the scripts of hack/action, each there and executable, with their inputs
// in env: (an expression in a run: would be spliced into the script's
// text, where an input can inject commands); every input, step and step
// output an expression names exists, a step's before the step that reads
// it; and each action it uses is one whose outputs the test knows.
func TestActionFile(t *testing.T) {
	a := readAction(t)
	if a.Runs.Using != "composite" {
		t.Fatalf("runs.using = %q, want composite", a.Runs.Using)
	}
	outputs := map[string][]string{} // by step, what it writes
	var seen []string
	check := func(where, text string) {
		for _, m := range inputRefRE.FindAllStringSubmatch(text, -1) {
			if _, ok := a.Inputs.Map[m[1]]; !ok {
				t.Errorf("%s names input %s, which action.yml does not declare", where, m[1])
			}
		}
		for _, m := range stepOutRefRE.FindAllStringSubmatch(text, -1) {
			switch {
			case !slices.Contains(seen, m[1]):
				t.Errorf("%s reads step %s, which is not a step before it", where, m[1])
			case !slices.Contains(outputs[m[1]], m[2]):
				t.Errorf("%s reads output %s of step %s, which it does not write (it writes %v)", where, m[2], m[1], outputs[m[1]])
			}
		}
	}
	scripts := 0
	for i, s := range a.Runs.Steps {
		where := fmt.Sprintf("step %d (%s)", i+1, s.ID)
		if s.ID == "" || slices.Contains(seen, s.ID) {
			t.Errorf("%s: every step needs an id of its own", where)
		}
		check(where+"'s if", s.If)
		for k, v := range s.With {
			check(where+"'s with."+k, v)
		}
		for k, v := range s.Env {
			check(where+"'s env."+k, v)
		}
		switch {
		case s.Run != "" && s.Uses != "":
			t.Errorf("%s has both run and uses", where)
		case s.Run != "":
			scripts++
			if s.Shell != "bash" {
				t.Errorf("%s: shell %q, want bash", where, s.Shell)
			}
			if s.If != "" {
				t.Errorf("%s: a run step with if: %q: the scripts decide for themselves, so that they run the same outside GitHub", where, s.If)
			}
			m := runScript.FindStringSubmatch(strings.TrimSpace(s.Run))
			if m == nil {
				t.Errorf("%s: run: %q, want \"$GITHUB_ACTION_PATH/hack/action/NAME.sh\" (inputs in env:)", where, s.Run)
				break
			}
			st, err := os.Stat(filepath.Join(root, m[1]))
			if err != nil {
				t.Errorf("%s: %v", where, err)
				break
			}
			if st.Mode()&0o111 == 0 {
				t.Errorf("%s: %s is not executable", where, m[1])
			}
			text, err := os.ReadFile(filepath.Join(root, m[1]))
			if err != nil {
				t.Fatal(err)
			}
			for _, o := range scriptOutputs.FindAllStringSubmatch(string(text), -1) {
				outputs[s.ID] = append(outputs[s.ID], o[1])
			}
		case s.Uses != "":
			outs, ok := usesOutputs[s.Uses]
			if !ok {
				t.Errorf("%s uses %s, which the test does not know: add its outputs to usesOutputs, and what the simulation should make of it to sim_test.go", where, s.Uses)
			}
			outputs[s.ID] = outs
		default:
			t.Errorf("%s has neither run nor uses", where)
		}
		seen = append(seen, s.ID)
	}
	for _, name := range a.Outputs.Names {
		check("output "+name, a.Outputs.Map[name].Value)
	}
	if scripts == 0 {
		t.Fatal("no run step: the test checks nothing")
	}
}

// TestActionDocumented: docs/ci.md's GitHub Action section has a row for
// every input (with its default) and every output, in action.yml's order,
// and no row for anything else; its workflow uses the action with inputs
// it has.
func TestActionDocumented(t *testing.T) {
	a := readAction(t)
	data, err := os.ReadFile(filepath.Join(root, "docs", "ci.md"))
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	start := strings.Index(text, "\n## GitHub Action\n")
	if start < 0 {
		t.Fatal(`docs/ci.md has no "## GitHub Action" section`)
	}
	section := text[start+1:]
	if end := strings.Index(section[1:], "\n## "); end >= 0 {
		section = section[:end+1]
	}
	var want []string
	for _, name := range a.Inputs.Names {
		def := "`" + a.Inputs.Map[name].Default + "`"
		if a.Inputs.Map[name].Default == "" {
			def = "none"
		}
		want = append(want, fmt.Sprintf("input `%s` %s", name, def))
	}
	for _, name := range a.Outputs.Names {
		want = append(want, fmt.Sprintf("output `%s`", name))
	}
	var got []string
	kind := ""
	for line := range strings.SplitSeq(section, "\n") {
		if !strings.HasPrefix(line, "|") {
			kind = ""
			continue
		}
		cells := strings.Split(strings.Trim(line, "|"), "|")
		for i := range cells {
			cells[i] = strings.TrimSpace(cells[i])
		}
		switch {
		case cells[0] == "input" || cells[0] == "output":
			kind = cells[0]
		case strings.HasPrefix(cells[0], "---"):
		case kind == "input" && len(cells) >= 2:
			got = append(got, "input "+cells[0]+" "+cells[1])
		case kind == "output":
			got = append(got, "output "+cells[0])
		}
	}
	checkWorkflows(t, a, section)
	if !slices.Equal(got, want) {
		t.Errorf("docs/ci.md's GitHub Action tables have rows\n\t%s\nwant (action.yml's inputs with their defaults, then its outputs)\n\t%s",
			strings.Join(got, "\n\t"), strings.Join(want, "\n\t"))
	}
}

// checkWorkflows checks the uses of the action in the workflows (yaml
// blocks) of text: each names inputs the action has.
func checkWorkflows(t *testing.T, a *action, text string) {
	t.Helper()
	blocks := regexp.MustCompile("(?s)```yaml\n(.*?)```").FindAllStringSubmatch(text, -1)
	uses := 0
	for _, b := range blocks {
		var wf struct {
			Jobs map[string]struct {
				Steps []struct {
					Uses string
					With map[string]string
				}
			}
		}
		if err := yaml.Unmarshal([]byte(b[1]), &wf); err != nil {
			t.Errorf("docs/ci.md: a workflow that does not parse: %v\n%s", err, b[1])
			continue
		}
		for _, j := range wf.Jobs {
			for _, s := range j.Steps {
				if !strings.HasPrefix(s.Uses, "ctrllint/ctrllint@") {
					continue
				}
				uses++
				for k := range s.With {
					if _, ok := a.Inputs.Map[k]; !ok {
						t.Errorf("docs/ci.md's workflow gives the action input %s, which it does not have", k)
					}
				}
			}
		}
	}
	if uses == 0 {
		t.Error("docs/ci.md's GitHub Action section has no workflow that uses ctrllint/ctrllint")
	}
}
