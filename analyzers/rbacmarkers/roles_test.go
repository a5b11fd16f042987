package rbacmarkers

import (
	"slices"
	"testing"
)

func TestStripTemplates(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"kind: Role\n", "kind: Role\n"},
		{"{{- if .Values.rbac.create }}\nkind: ClusterRole\n{{- end }}\n", "\nkind: ClusterRole\n\n"},
		{"  {{ include \"x\" . }}  \r\nrules:\n", "\r\nrules:\n"},
		{"  name: {{ .Release.Name }}-manager\n", "  name: x-manager\n"},
		{"  name: {{ a }}-{{ b }}\n", "  name: x-x\n"},
		{"  name: {{ unterminated\n", "  name: {{ unterminated\n"},
		{"no newline at end {{ x }}", "no newline at end x"},
		{"a: {{ x }}\n b: }}\n", "a: x\n b: }}\n"},
	} {
		if got := string(stripTemplates([]byte(tc.in))); got != tc.want {
			t.Errorf("stripTemplates(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestYAMLRulesHelmChart: a chart's ClusterRole, directives and all, is
// read as a grant; the generated role is not.
func TestYAMLRulesHelmChart(t *testing.T) {
	chart := `{{- if .Values.enableSecretsRole }}
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: {{ include "op.fullname" . }}-secrets
  labels:
    {{- include "op.labels" . | nindent 4 }}
rules:
- apiGroups: [""]
  resources: ["secrets"]
  verbs: ["get", "list", "watch"]
{{- end }}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: manager-role
rules:
- apiGroups: ["apps"]
  resources: ["deployments"]
  verbs: ["create"]
`
	got := yamlRules([]byte(chart), map[string]bool{"manager-role": true})
	if len(got) != 1 || !slices.Equal(got[0].resources, []string{"secrets"}) || !slices.Equal(got[0].verbs, []string{"get", "list", "watch"}) {
		t.Errorf("yamlRules = %+v, want the secrets rule alone", got)
	}
}
