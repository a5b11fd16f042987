package rbacmarkers

import (
	"strconv"
	"strings"
	"text/scanner"
)

// A rule is what one rbac marker grants, as controller-gen reads it
// (controller-tools' rbac.Rule): the groups ("core" is the core group,
// ""), resources (with "/subresource"), resource names, verbs and
// non-resource URLs, in the namespace's Role or, without one, the
// ClusterRole.
type rule struct {
	groups, resources, resourceNames, verbs, urls []string
	namespace                                     string
}

// The arguments of the marker and whether each is a list.
var ruleArgs = map[string]bool{
	"groups": true, "resources": true, "resourceNames": true, "verbs": true, "urls": true,
	"namespace": false, "roleName": false,
}

// parseRule reads the arguments of an rbac marker, "+kubebuilder:rbac:
// groups=apps,resources=deployments;deployments/status,verbs=get;list",
// with the grammar of controller-tools' marker parser: name=value pairs
// separated by commas; a list either {a,b} or a;b; a value quoted as a Go
// string or bare (the text up to the next , ; or }). ok is false when
// controller-gen would refuse the marker (an unknown argument, no verbs,
// text it cannot scan): it then fails, and nothing is generated.
func parseRule(body string) (r rule, ok bool) {
	name, full, rest := splitName(body)
	if name != "kubebuilder:rbac" || full == name {
		return r, false
	}
	// "+kubebuilder:rbac:groups=apps,..." names its first argument in the
	// marker's name.
	args := full[len(name)+1:] + "=" + rest
	p := &argParser{src: args}
	p.s.Init(strings.NewReader(args))
	p.s.Mode = scanner.ScanIdents | scanner.ScanStrings | scanner.ScanRawStrings
	p.s.Error = func(*scanner.Scanner, string) { p.failed = true }
	seen := map[string]bool{}
	for {
		if p.s.Scan() != scanner.Ident {
			return r, false
		}
		arg := p.s.TokenText()
		list, known := ruleArgs[arg]
		if !known || p.s.Scan() != '=' {
			return r, false
		}
		seen[arg] = true
		var values []string
		if list {
			values = p.list()
		} else {
			values = []string{p.value()}
		}
		switch arg {
		case "groups":
			r.groups = values
		case "resources":
			r.resources = values
		case "resourceNames":
			r.resourceNames = values
		case "verbs":
			r.verbs = values
		case "urls":
			r.urls = values
		case "namespace":
			r.namespace = values[0]
		}
		if p.failed {
			return r, false
		}
		if p.s.Peek() == scanner.EOF {
			break
		}
		if p.s.Scan() != ',' {
			return r, false
		}
	}
	if p.s.Scan() != scanner.EOF || p.failed || !seen["verbs"] {
		return r, false
	}
	for i, g := range r.groups {
		if g == "core" {
			r.groups[i] = "" // controller-gen lets "core" stand for the core group
		}
	}
	return r, true
}

type argParser struct {
	src    string
	s      scanner.Scanner
	failed bool
}

// peek is the next character after white space.
func (p *argParser) peek() rune {
	for {
		c := p.s.Peek()
		if c > ' ' || p.s.Whitespace&(1<<uint(c)) == 0 {
			return c
		}
		p.s.Next()
	}
}

// list reads {a,b} or a;b;c.
func (p *argParser) list() []string {
	var out []string
	if p.peek() == '{' {
		p.s.Scan()
		for c := p.peek(); c != '}' && c != scanner.EOF; c = p.peek() {
			out = append(out, p.value())
			if p.peek() == '}' {
				break
			}
			if p.s.Scan() != ',' {
				p.failed = true
				return out
			}
		}
		if p.s.Scan() != '}' {
			p.failed = true
		}
		return out
	}
	for c := p.peek(); c != ',' && c != '}' && c != scanner.EOF; c = p.peek() {
		out = append(out, p.value())
		c := p.peek()
		if c == ',' || c == '}' || c == scanner.EOF {
			break
		}
		if p.s.Scan() != ';' {
			p.failed = true
			return out
		}
	}
	return out
}

// value reads a quoted string, or bare tokens up to , ; } or the end.
func (p *argParser) value() string {
	tok := p.s.Scan()
	if tok == scanner.String || tok == scanner.RawString {
		v, err := strconv.Unquote(p.s.TokenText())
		if err != nil {
			p.failed = true
		}
		return v
	}
	if tok == scanner.EOF {
		return ""
	}
	start := p.s.Position.Offset
	end := start + len(p.s.TokenText())
	for c := p.peek(); c != ',' && c != ';' && c != '}' && c != scanner.EOF; c = p.peek() {
		p.s.Scan()
		end = p.s.Position.Offset + len(p.s.TokenText())
	}
	return p.src[start:end]
}
