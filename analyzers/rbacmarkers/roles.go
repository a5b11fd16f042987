package rbacmarkers

import (
	"bytes"
	"errors"
	"io"
	"path/filepath"
	"regexp"
	"strings"

	yaml "go.yaml.in/yaml/v3"
)

// Roles written by hand beside the markers: a project may grant some of
// what its manager does in YAML of its own (kueue's
// config/components/rbac/manager_secrets_role.yaml, a namespaced Role for
// Secrets; a Helm chart's ClusterRole), and the markers need not repeat
// it. The rules of every Role and ClusterRole in the module's YAML count
// as grants, whoever they are bound to, except the role controller-gen
// writes from the markers (its roleName in the Makefile, manager-role by
// default): a finding is never made of what a role in the repository
// grants. YAML that does not parse, Helm template directives taken out, is
// skipped.

// A yamlRole is the part of a Role or ClusterRole the analyzer reads.
type yamlRole struct {
	Kind     string `yaml:"kind"`
	Metadata struct {
		Name string `yaml:"name"`
	} `yaml:"metadata"`
	Rules []struct {
		APIGroups     []string `yaml:"apiGroups"`
		Resources     []string `yaml:"resources"`
		ResourceNames []string `yaml:"resourceNames"`
		Verbs         []string `yaml:"verbs"`
	} `yaml:"rules"`
}

// roleNameFlag finds controller-gen's rbac:roleName=NAME in a Makefile.
var roleNameFlag = regexp.MustCompile(`rbac:roleName=["']?([A-Za-z0-9.:_-]+)`)

// generatedRoles are the names of the roles controller-gen writes, read
// from the module's Makefiles: manager-role when none says.
func (c *checker) generatedRoles(root string) map[string]bool {
	names := map[string]bool{"manager-role": true}
	for _, mk := range []string{"Makefile", "makefile", "GNUmakefile"} {
		data, err := c.readFile(filepath.Join(root, mk))
		if err != nil {
			continue
		}
		for _, m := range roleNameFlag.FindAllSubmatch(data, -1) {
			names[string(m[1])] = true
		}
	}
	return names
}

// stripTemplates takes the Helm template directives out of a chart's
// YAML: a line holding directives only is emptied, and an expression
// inside a line ({{ .Values.x }}) becomes x, so that the rest parses. A
// scan of the lines, not a regexp: the module's YAML is read for every
// package analysed, and charts are large.
func stripTemplates(data []byte) []byte {
	out := make([]byte, 0, len(data))
	for line := range bytes.Lines(data) {
		body := bytes.TrimRight(line, "\r\n")
		eol := line[len(body):]
		if t := bytes.TrimSpace(body); bytes.HasPrefix(t, []byte("{{")) && bytes.HasSuffix(t, []byte("}}")) {
			out = append(out, eol...)
			continue
		}
		for {
			open := bytes.Index(body, []byte("{{"))
			if open < 0 {
				break
			}
			end := bytes.Index(body[open+2:], []byte("}}"))
			if end < 0 {
				break
			}
			out = append(out, body[:open]...)
			out = append(out, 'x')
			body = body[open+2+end+2:]
		}
		out = append(out, body...)
		out = append(out, eol...)
	}
	return out
}

// yamlRules reads the rules of the Roles and ClusterRoles of a YAML file,
// but the generated ones.
func yamlRules(data []byte, generated map[string]bool) []rule {
	if !bytes.Contains(data, []byte("rules:")) || !bytes.Contains(data, []byte("Role")) {
		return nil
	}
	if bytes.Contains(data, []byte("{{")) {
		data = stripTemplates(data)
	}
	var out []rule
	dec := yaml.NewDecoder(bytes.NewReader(data))
	for {
		var r yamlRole
		err := dec.Decode(&r)
		if errors.Is(err, io.EOF) || err != nil && !isTypeError(err) {
			return out
		}
		if err != nil || r.Kind != "Role" && r.Kind != "ClusterRole" || generated[r.Metadata.Name] {
			continue
		}
		for _, ru := range r.Rules {
			out = append(out, rule{groups: ru.APIGroups, resources: ru.Resources, resourceNames: ru.ResourceNames, verbs: ru.Verbs})
		}
	}
}

// isTypeError reports whether a decoding error is about one document's
// shape (a field of another type), after which the next document can be
// read.
func isTypeError(err error) bool {
	var te *yaml.TypeError
	return errors.As(err, &te)
}

// isManifest reports whether a file name is YAML.
func isManifest(name string) bool {
	return strings.HasSuffix(name, ".yaml") || strings.HasSuffix(name, ".yml")
}
