package main

import (
	"encoding/json"
	"fmt"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// checkSARIF checks data against the parts of the SARIF 2.1.0 schema
// (and GitHub code scanning's upload rules) that ctrllint's output
// touches: required properties, enumerations, value ranges, references
// between rules and results and between URIs and their bases, and that
// no property has a name SARIF does not define for that object (a typo
// would otherwise be silently ignored by every consumer). It returns the
// decoded log.
func checkSARIF(t *testing.T, data []byte) map[string]any {
	t.Helper()
	var log map[string]any
	if err := json.Unmarshal(data, &log); err != nil {
		t.Fatalf("SARIF is not JSON: %v\n%s", err, data)
	}
	c := &sarifChecker{}
	c.log(log)
	for _, e := range c.errs {
		t.Error("SARIF: " + e)
	}
	if len(c.errs) > 0 {
		t.FailNow()
	}
	return log
}

type sarifChecker struct{ errs []string }

var (
	// semVer is SemVer 2.0's own regular expression (semver.org).
	semVer     = regexp.MustCompile(`^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$`)
	pascalName = regexp.MustCompile(`^[A-Z][A-Za-z0-9]*$`)
)

func (c *sarifChecker) errorf(path, format string, args ...any) {
	c.errs = append(c.errs, path+": "+fmt.Sprintf(format, args...))
}

// object checks that v is an object with all of required and nothing
// outside allowed, and returns it.
func (c *sarifChecker) object(path string, v any, required, allowed []string) map[string]any {
	m, ok := v.(map[string]any)
	if !ok {
		c.errorf(path, "want an object, got %T", v)
		return map[string]any{}
	}
	for _, r := range required {
		if _, ok := m[r]; !ok {
			c.errorf(path, "missing required property %q", r)
		}
	}
	for k := range m {
		if !slices.Contains(required, k) && !slices.Contains(allowed, k) && k != "properties" {
			c.errorf(path, "property %q is not defined by SARIF here", k)
		}
	}
	return m
}

func (c *sarifChecker) array(path string, v any, minItems int) []any {
	a, ok := v.([]any)
	if !ok {
		c.errorf(path, "want an array, got %T", v)
		return nil
	}
	if len(a) < minItems {
		c.errorf(path, "want at least %d items, got %d", minItems, len(a))
	}
	return a
}

func (c *sarifChecker) str(path string, v any) string {
	s, ok := v.(string)
	if !ok {
		c.errorf(path, "want a string, got %T", v)
	}
	return s
}

func (c *sarifChecker) integer(path string, v any, min int) int {
	f, ok := v.(float64)
	if !ok || f != float64(int(f)) {
		c.errorf(path, "want an integer, got %v", v)
		return 0
	}
	if int(f) < min {
		c.errorf(path, "want >= %d, got %v", min, f)
	}
	return int(f)
}

func (c *sarifChecker) enum(path string, v any, values ...string) {
	if s := c.str(path, v); !slices.Contains(values, s) {
		c.errorf(path, "%q is not one of %v", s, values)
	}
}

func (c *sarifChecker) message(path string, v any) {
	m := c.object(path, v, nil, []string{"text", "markdown", "id", "arguments"})
	if _, ok := m["text"]; !ok {
		if _, ok := m["id"]; !ok {
			c.errorf(path, "message needs text or id")
		}
	}
	if s, ok := m["text"]; ok && c.str(path+".text", s) == "" {
		c.errorf(path, "empty text")
	}
}

func (c *sarifChecker) multiformat(path string, v any) {
	m := c.object(path, v, []string{"text"}, []string{"markdown"})
	c.str(path+".text", m["text"])
}

func (c *sarifChecker) log(log map[string]any) {
	c.object("sarifLog", log, []string{"version", "runs"}, []string{"$schema", "inlineExternalProperties"})
	if log["version"] != "2.1.0" {
		c.errorf("version", "want 2.1.0, got %v", log["version"])
	}
	if s, ok := log["$schema"]; ok && s != "https://json.schemastore.org/sarif-2.1.0.json" {
		c.errorf("$schema", "unexpected %v", s)
	}
	runs := c.array("runs", log["runs"], 1)
	if len(runs) != 1 {
		c.errorf("runs", "GitHub code scanning wants one run per tool, got %d", len(runs))
	}
	for i, r := range runs {
		c.run(fmt.Sprintf("runs[%d]", i), r)
	}
}

func (c *sarifChecker) run(path string, v any) {
	run := c.object(path, v, []string{"tool"}, []string{"invocations", "originalUriBaseIds", "columnKind", "results"})
	tool := c.object(path+".tool", run["tool"], []string{"driver"}, []string{"extensions"})
	drv := c.object(path+".tool.driver", tool["driver"], []string{"name"}, []string{"informationUri", "version", "semanticVersion", "rules"})
	c.str(path+".tool.driver.name", drv["name"])
	if u, ok := drv["informationUri"]; ok {
		c.absURI(path+".tool.driver.informationUri", u)
	}
	// The SARIF Multitool's SARIF2005 warns of a version not starting
	// with a digit; semanticVersion is SemVer 2.0 by definition. We give
	// both, both SemVer.
	for _, k := range []string{"version", "semanticVersion"} {
		if v := c.str(path+".tool.driver."+k, drv[k]); !semVer.MatchString(v) {
			c.errorf(path+".tool.driver."+k, "%q is not a semantic version", v)
		}
	}

	var ruleIDs []string
	for i, r := range c.array(path+".tool.driver.rules", drv["rules"], 0) {
		rp := fmt.Sprintf("%s.tool.driver.rules[%d]", path, i)
		rule := c.object(rp, r, []string{"id"}, []string{"name", "shortDescription", "fullDescription", "helpUri", "help", "defaultConfiguration"})
		ruleIDs = append(ruleIDs, c.str(rp+".id", rule["id"]))
		// The Multitool's SARIF1001 warns of a name equal to the id,
		// case ignored; SARIF2012 wants a PascalCase name.
		if name := c.str(rp+".name", rule["name"]); strings.EqualFold(name, ruleIDs[len(ruleIDs)-1]) || !pascalName.MatchString(name) {
			c.errorf(rp+".name", "%q is not a PascalCase name other than the id %q", name, ruleIDs[len(ruleIDs)-1])
		}
		for _, k := range []string{"shortDescription", "fullDescription", "help"} {
			if d, ok := rule[k]; ok {
				c.multiformat(rp+"."+k, d)
			}
		}
		if u, ok := rule["helpUri"]; ok {
			c.absURI(rp+".helpUri", u)
		}
		if d, ok := rule["defaultConfiguration"]; ok {
			cfg := c.object(rp+".defaultConfiguration", d, nil, []string{"level", "enabled", "rank", "parameters"})
			c.enum(rp+".defaultConfiguration.level", cfg["level"], "none", "note", "warning", "error")
		}
	}
	if len(slices.Compact(slices.Sorted(slices.Values(ruleIDs)))) != len(ruleIDs) {
		c.errorf(path+".tool.driver.rules", "duplicate rule ids %v", ruleIDs)
	}

	bases := map[string]bool{}
	if b, ok := run["originalUriBaseIds"]; ok {
		m, ok := b.(map[string]any)
		if !ok {
			c.errorf(path+".originalUriBaseIds", "want an object")
		}
		// Each value is an artifactLocation with an absolute URI ending
		// in "/" (SARIF §3.14.14).
		for k, loc := range m {
			bases[k] = true
			lp := path + ".originalUriBaseIds." + k
			l := c.object(lp, loc, []string{"uri"}, []string{"uriBaseId", "description"})
			u := c.absURI(lp+".uri", l["uri"])
			if !strings.HasSuffix(u, "/") {
				c.errorf(lp+".uri", "base URI must end with a slash: %q", u)
			}
		}
	}
	if ck, ok := run["columnKind"]; ok {
		c.enum(path+".columnKind", ck, "utf16CodeUnits", "unicodeCodePoints")
	}
	for i, inv := range c.array(path+".invocations", run["invocations"], 0) {
		ip := fmt.Sprintf("%s.invocations[%d]", path, i)
		m := c.object(ip, inv, []string{"executionSuccessful"}, []string{"toolExecutionNotifications"})
		if _, ok := m["executionSuccessful"].(bool); !ok {
			c.errorf(ip+".executionSuccessful", "want a boolean")
		}
		if ns, ok := m["toolExecutionNotifications"]; ok {
			for j, n := range c.array(ip+".toolExecutionNotifications", ns, 0) {
				np := fmt.Sprintf("%s.toolExecutionNotifications[%d]", ip, j)
				nm := c.object(np, n, []string{"message"}, []string{"level", "locations", "descriptor"})
				c.message(np+".message", nm["message"])
				c.enum(np+".level", nm["level"], "none", "note", "warning", "error")
			}
		}
	}

	results, ok := run["results"]
	if !ok {
		c.errorf(path, "no results array: GitHub treats a missing one as a failed run")
		return
	}
	withState := 0
	resultList := c.array(path+".results", results, 0)
	for i, r := range resultList {
		rp := fmt.Sprintf("%s.results[%d]", path, i)
		res := c.object(rp, r, []string{"message"}, []string{"ruleId", "ruleIndex", "level", "locations", "fixes", "baselineState"})
		// SARIF 3.27.24: present on every result of a run compared with
		// a baseline, or on none.
		if st, ok := res["baselineState"]; ok {
			c.enum(rp+".baselineState", st, "new", "unchanged", "updated", "absent")
			withState++
		}
		c.message(rp+".message", res["message"])
		id := c.str(rp+".ruleId", res["ruleId"])
		if !slices.Contains(ruleIDs, id) {
			c.errorf(rp+".ruleId", "%q is not a rule of the driver", id)
		}
		if ri, ok := res["ruleIndex"]; ok {
			n := c.integer(rp+".ruleIndex", ri, 0)
			if n >= len(ruleIDs) || ruleIDs[n] != id {
				c.errorf(rp+".ruleIndex", "%d does not point at rule %q", n, id)
			}
		}
		if l, ok := res["level"]; ok {
			c.enum(rp+".level", l, "none", "note", "warning", "error")
		}
		locs := c.array(rp+".locations", res["locations"], 1)
		for j, l := range locs {
			lp := fmt.Sprintf("%s.locations[%d]", rp, j)
			loc := c.object(lp, l, nil, []string{"physicalLocation"})
			pl := c.object(lp+".physicalLocation", loc["physicalLocation"], []string{"artifactLocation", "region"}, nil)
			c.artifact(lp+".physicalLocation.artifactLocation", pl["artifactLocation"], bases)
			c.region(lp+".physicalLocation.region", pl["region"])
		}
		if fs, ok := res["fixes"]; ok {
			for j, f := range c.array(rp+".fixes", fs, 0) {
				fp := fmt.Sprintf("%s.fixes[%d]", rp, j)
				fix := c.object(fp, f, []string{"artifactChanges"}, []string{"description"})
				if d, ok := fix["description"]; ok {
					c.message(fp+".description", d)
				}
				for k, ch := range c.array(fp+".artifactChanges", fix["artifactChanges"], 1) {
					cp := fmt.Sprintf("%s.artifactChanges[%d]", fp, k)
					change := c.object(cp, ch, []string{"artifactLocation", "replacements"}, nil)
					c.artifact(cp+".artifactLocation", change["artifactLocation"], bases)
					for n, rep := range c.array(cp+".replacements", change["replacements"], 1) {
						pp := fmt.Sprintf("%s.replacements[%d]", cp, n)
						repl := c.object(pp, rep, []string{"deletedRegion"}, []string{"insertedContent"})
						c.region(pp+".deletedRegion", repl["deletedRegion"])
						if ic, ok := repl["insertedContent"]; ok {
							ico := c.object(pp+".insertedContent", ic, nil, []string{"text", "binary"})
							if _, ok := ico["text"].(string); !ok {
								c.errorf(pp+".insertedContent", "want text")
							}
						}
					}
				}
			}
		}
	}
	if withState != 0 && withState != len(resultList) {
		c.errorf(path+".results", "baselineState on %d of %d results: on all or none", withState, len(resultList))
	}
}

// artifact checks an artifactLocation: a relative URI must name a base
// declared in originalUriBaseIds, use forward slashes, and not escape it.
func (c *sarifChecker) artifact(path string, v any, bases map[string]bool) {
	a := c.object(path, v, []string{"uri"}, []string{"uriBaseId", "index"})
	u := c.str(path+".uri", a["uri"])
	parsed, err := url.Parse(u)
	if err != nil {
		c.errorf(path+".uri", "%v", err)
		return
	}
	if strings.Contains(u, `\`) {
		c.errorf(path+".uri", "backslash in %q", u)
	}
	if parsed.IsAbs() {
		if _, ok := a["uriBaseId"]; ok {
			c.errorf(path, "absolute uri %q with a uriBaseId", u)
		}
		return
	}
	base, ok := a["uriBaseId"].(string)
	if !ok || !bases[base] {
		c.errorf(path, "relative uri %q without a declared uriBaseId (have %v)", u, a["uriBaseId"])
	}
	if strings.HasPrefix(u, "/") || strings.HasPrefix(u, "../") || u == ".." {
		c.errorf(path+".uri", "relative uri %q is not beneath its base", u)
	}
}

func (c *sarifChecker) region(path string, v any) {
	r := c.object(path, v, []string{"startLine"}, []string{"startColumn", "endLine", "endColumn"})
	sl := c.integer(path+".startLine", r["startLine"], 1)
	sc, el, ec := 1, sl, 0
	if x, ok := r["startColumn"]; ok {
		sc = c.integer(path+".startColumn", x, 1)
	}
	if x, ok := r["endLine"]; ok {
		el = c.integer(path+".endLine", x, sl)
	}
	if x, ok := r["endColumn"]; ok {
		ec = c.integer(path+".endColumn", x, 1)
		if el == sl && ec < sc {
			c.errorf(path, "ends (column %d) before it starts (column %d)", ec, sc)
		}
	}
}

func (c *sarifChecker) absURI(path string, v any) string {
	s := c.str(path, v)
	u, err := url.Parse(s)
	if err != nil || !u.IsAbs() {
		c.errorf(path, "want an absolute URI, got %q", s)
	}
	return s
}

// The checker must itself catch what it claims to: each mutation of a
// valid log must be reported.
func TestSARIFCheckerRejects(t *testing.T) {
	dir := fixture(t)
	r := runInProcess("-C", dir, "-enable", "badcall", "-f", "sarif", "./...")
	valid := []byte(r.stdout)
	for name, mutate := range map[string]func(log map[string]any){
		"wrong version":    func(l map[string]any) { l["version"] = "2.0.0" },
		"no runs":          func(l map[string]any) { delete(l, "runs") },
		"no driver name":   func(l map[string]any) { delete(driverOf(l), "name") },
		"unknown property": func(l map[string]any) { driverOf(l)["rulez"] = []any{} },
		"rule without id":  func(l map[string]any) { delete(ruleOf(l), "id") },
		"rule name the id": func(l map[string]any) { ruleOf(l)["name"] = "Badcall" },
		"rule name lower":  func(l map[string]any) { ruleOf(l)["name"] = "reportCallsToBad" },
		"version devel":    func(l map[string]any) { driverOf(l)["version"] = "devel (8e32899296ac)" },
		"version with v":   func(l map[string]any) { driverOf(l)["semanticVersion"] = "v0.1.0" },
		"bad level":        func(l map[string]any) { resultOf(l)["level"] = "warn" },
		"ruleIndex off":    func(l map[string]any) { resultOf(l)["ruleIndex"] = 3.0 },
		"unknown ruleId":   func(l map[string]any) { resultOf(l)["ruleId"] = "nope" },
		"no message":       func(l map[string]any) { delete(resultOf(l), "message") },
		"undeclared base":  func(l map[string]any) { artifactOf(l)["uriBaseId"] = "%OTHER%" },
		"escaping uri":     func(l map[string]any) { artifactOf(l)["uri"] = "../x.go" },
		"backslash":        func(l map[string]any) { artifactOf(l)["uri"] = `sub\s.go` },
		"line 0":           func(l map[string]any) { regionOf(l)["startLine"] = 0.0 },
		"backwards region": func(l map[string]any) { regionOf(l)["endColumn"] = 1.0 },
		"base without /": func(l map[string]any) {
			runOf(l)["originalUriBaseIds"].(map[string]any)["%SRCROOT%"].(map[string]any)["uri"] = "file:///x"
		},
		"fix without edits": func(l map[string]any) { delete(resultOf(l)["fixes"].([]any)[0].(map[string]any), "artifactChanges") },
		"no results":        func(l map[string]any) { delete(runOf(l), "results") },
		"bad baselineState": func(l map[string]any) {
			for _, r := range runOf(l)["results"].([]any) {
				r.(map[string]any)["baselineState"] = "old"
			}
		},
		"baselineState on some results": func(l map[string]any) { resultOf(l)["baselineState"] = "new" },
	} {
		var log map[string]any
		if err := json.Unmarshal(valid, &log); err != nil {
			t.Fatal(err)
		}
		mutate(log)
		c := &sarifChecker{}
		c.log(log)
		if len(c.errs) == 0 {
			t.Errorf("%s: not detected", name)
		}
	}
}

func runOf(l map[string]any) map[string]any { return l["runs"].([]any)[0].(map[string]any) }
func driverOf(l map[string]any) map[string]any {
	return runOf(l)["tool"].(map[string]any)["driver"].(map[string]any)
}
func ruleOf(l map[string]any) map[string]any { return driverOf(l)["rules"].([]any)[0].(map[string]any) }
func resultOf(l map[string]any) map[string]any {
	return runOf(l)["results"].([]any)[0].(map[string]any)
}
func physOf(l map[string]any) map[string]any {
	return resultOf(l)["locations"].([]any)[0].(map[string]any)["physicalLocation"].(map[string]any)
}
func artifactOf(l map[string]any) map[string]any {
	return physOf(l)["artifactLocation"].(map[string]any)
}
func regionOf(l map[string]any) map[string]any { return physOf(l)["region"].(map[string]any) }
