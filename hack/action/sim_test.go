package action

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// A runner runs action.yml's steps as GitHub's runner does a composite
// action's: each run step's script with bash -eo pipefail in the
// workspace, its env: evaluated, and the runner's files and variables
// (GITHUB_OUTPUT, GITHUB_PATH, GITHUB_ACTION_PATH, RUNNER_TEMP); the
// steps after a failed one do not run. The steps that use other actions
// (actions/cache, upload-sarif) need GitHub: their if: is evaluated and
// their with: recorded, and actions/cache/restore says it missed.
type runner struct {
	t          *testing.T
	workspace  string
	temp       string   // RUNNER_TEMP
	env        []string // the job's environment
	pathFile   string   // GITHUB_PATH
	restoreHit string   // actions/cache/restore's cache-hit
}

// A run is what came of one use of the action.
type run struct {
	outputs map[string]map[string]string // by step id
	used    map[string]map[string]string // the uses steps that ran: their with:, evaluated
	failed  string                       // the step that failed, "" for none
	code    int                          // its exit status
	log     string                       // the run steps' stdout and stderr
	action  map[string]string            // the action's outputs
}

// evaluation is an expression's context: the inputs and the outputs of
// the steps so far.
type evaluation struct {
	t       *testing.T
	inputs  map[string]string
	outputs map[string]map[string]string
}

var (
	stepOutRE = regexp.MustCompile(`^steps\.([\w-]+)\.outputs\.([\w-]+)$`)
	hashRE    = regexp.MustCompile(`^hashFiles\('[^']*'\)$`)
	compareRE = regexp.MustCompile(`^(\S+) (==|!=) '([^']*)'$`)
)

// value is the value of expr, one of the few forms action.yml uses; any
// other fails the test, which would otherwise pass an expression it
// cannot judge.
func (e *evaluation) value(expr string) string {
	switch m := stepOutRE.FindStringSubmatch(expr); {
	case strings.HasPrefix(expr, "inputs."):
		v, ok := e.inputs[strings.TrimPrefix(expr, "inputs.")]
		if !ok {
			e.t.Fatalf("expression %s: no such input", expr)
		}
		return v
	case m != nil:
		return e.outputs[m[1]][m[2]]
	case expr == "runner.os":
		return "Linux"
	case hashRE.MatchString(expr):
		return "HASH"
	}
	e.t.Fatalf("expression %q is of no form the simulation knows (sim_test.go)", expr)
	return ""
}

// expand replaces each ${{ expr }} in text.
func (e *evaluation) expand(text string) string {
	return exprRE.ReplaceAllStringFunc(text, func(s string) string {
		return e.value(exprRE.FindStringSubmatch(s)[1])
	})
}

// holds evaluates an if: of comparisons joined by &&.
func (e *evaluation) holds(cond string) bool {
	if m := exprRE.FindStringSubmatch(cond); m != nil && m[0] == strings.TrimSpace(cond) {
		cond = m[1]
	}
	if strings.TrimSpace(cond) == "" {
		return true
	}
	for part := range strings.SplitSeq(cond, "&&") {
		m := compareRE.FindStringSubmatch(strings.TrimSpace(part))
		if m == nil {
			e.t.Fatalf("condition %q: %q is of no form the simulation knows (sim_test.go)", cond, part)
		}
		if (e.value(m[1]) == m[3]) != (m[2] == "==") {
			return false
		}
	}
	return true
}

// use runs the action with inputs (the others at their defaults) up to
// and including the step with id until ("" for all).
func (r *runner) use(a *action, inputs map[string]string, until string) *run {
	r.t.Helper()
	e := &evaluation{t: r.t, inputs: map[string]string{}, outputs: map[string]map[string]string{}}
	for _, name := range a.Inputs.Names {
		e.inputs[name] = a.Inputs.Map[name].Default
	}
	for name, v := range inputs {
		if _, ok := a.Inputs.Map[name]; !ok {
			r.t.Fatalf("no input %s", name)
		}
		e.inputs[name] = v
	}
	res := &run{outputs: e.outputs, used: map[string]map[string]string{}}
	var log bytes.Buffer
	for _, s := range a.Runs.Steps {
		if s.Uses != "" {
			if e.holds(s.If) {
				with := map[string]string{}
				for k, v := range s.With {
					with[k] = e.expand(v)
				}
				res.used[s.ID] = with
				if strings.HasPrefix(s.Uses, "actions/cache/restore@") {
					e.outputs[s.ID] = map[string]string{"cache-hit": r.restoreHit}
				}
			}
		} else {
			code, outs := r.step(s, e, &log)
			e.outputs[s.ID] = outs
			if code != 0 {
				res.failed, res.code = s.ID, code
				break
			}
		}
		if s.ID == until {
			break
		}
	}
	res.log = log.String()
	res.action = map[string]string{}
	for _, name := range a.Outputs.Names {
		res.action[name] = e.expand(a.Outputs.Map[name].Value)
	}
	return res
}

// step runs a run step and returns its exit status and outputs.
func (r *runner) step(s step, e *evaluation, log *bytes.Buffer) (int, map[string]string) {
	r.t.Helper()
	dir := r.t.TempDir()
	script := filepath.Join(dir, "step.sh")
	outFile := filepath.Join(dir, "output")
	if err := os.WriteFile(script, []byte(s.Run), 0o644); err != nil {
		r.t.Fatal(err)
	}
	if err := os.WriteFile(outFile, nil, 0o644); err != nil {
		r.t.Fatal(err)
	}
	cmd := exec.Command("bash", "--noprofile", "--norc", "-eo", "pipefail", script)
	cmd.Dir = r.workspace
	cmd.Env = append(slices.Clone(r.env),
		"GITHUB_OUTPUT="+outFile,
		"GITHUB_PATH="+r.pathFile,
		"GITHUB_ACTION_PATH="+root,
		"GITHUB_WORKSPACE="+r.workspace,
		"RUNNER_TEMP="+r.temp,
		"RUNNER_OS=Linux",
	)
	for k, v := range s.Env {
		cmd.Env = append(cmd.Env, k+"="+e.expand(v))
	}
	cmd.Stdout, cmd.Stderr = log, log
	code := 0
	if err := cmd.Run(); err != nil {
		ee, ok := err.(*exec.ExitError)
		if !ok {
			r.t.Fatalf("step %s: %v", s.ID, err)
		}
		code = ee.ExitCode()
	}
	data, err := os.ReadFile(outFile)
	if err != nil {
		r.t.Fatal(err)
	}
	return code, parseOutputs(r.t, string(data))
}

// parseOutputs reads a GITHUB_OUTPUT file: NAME=VALUE lines, and
// NAME<<DELIMITER, the value's lines, DELIMITER.
func parseOutputs(t *testing.T, text string) map[string]string {
	t.Helper()
	outs := map[string]string{}
	sc := bufio.NewScanner(strings.NewReader(text))
	for sc.Scan() {
		line := sc.Text()
		if name, delim, ok := strings.Cut(line, "<<"); ok && !strings.Contains(name, "=") {
			var lines []string
			closed := false
			for sc.Scan() {
				if sc.Text() == delim {
					closed = true
					break
				}
				lines = append(lines, sc.Text())
			}
			if !closed {
				t.Fatalf("GITHUB_OUTPUT: %s's value is not closed by %s", name, delim)
			}
			outs[name] = strings.Join(lines, "\n")
			continue
		}
		name, value, ok := strings.Cut(line, "=")
		if !ok {
			t.Fatalf("GITHUB_OUTPUT: line %q is neither NAME=VALUE nor NAME<<DELIMITER", line)
		}
		outs[name] = value
	}
	return outs
}
