package main

import (
	"encoding/json"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"golang.org/x/tools/go/analysis"

	"github.com/ctrllint/ctrllint/internal/finding"
)

// SARIF 2.1.0, the subset GitHub code scanning reads. Only the fields
// written are declared; see
// https://docs.oasis-open.org/sarif/sarif/v2.1.0/sarif-v2.1.0.html.
const (
	sarifSchema  = "https://json.schemastore.org/sarif-2.1.0.json"
	sarifVersion = "2.1.0"
	srcRoot      = "%SRCROOT%"
	toolInfoURI  = "https://github.com/ctrllint/ctrllint"
)

type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool               sarifTool                `json:"tool"`
	Invocations        []sarifInvocation        `json:"invocations"`
	OriginalURIBaseIDs map[string]sarifLocation `json:"originalUriBaseIds"`
	// Regions count UTF-16 code units, SARIF's default, stated anyway so
	// that no consumer has to know the default.
	ColumnKind string        `json:"columnKind"`
	Results    []sarifResult `json:"results"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name           string `json:"name"`
	InformationURI string `json:"informationUri"`
	// Version and SemanticVersion are both SemVer 2.0 (semanticVersion):
	// SARIF validators warn of a version that does not start with a digit.
	Version         string      `json:"version"`
	SemanticVersion string      `json:"semanticVersion"`
	Rules           []sarifRule `json:"rules"`
}

type sarifRule struct {
	ID                   string       `json:"id"`
	Name                 string       `json:"name"`
	ShortDescription     sarifText    `json:"shortDescription"`
	FullDescription      sarifText    `json:"fullDescription"`
	HelpURI              string       `json:"helpUri,omitempty"`
	Help                 sarifHelp    `json:"help"`
	DefaultConfiguration sarifRuleCfg `json:"defaultConfiguration"`
}

type sarifText struct {
	Text string `json:"text"`
}

type sarifHelp struct {
	Text     string `json:"text"`
	Markdown string `json:"markdown,omitempty"`
}

type sarifRuleCfg struct {
	Level string `json:"level"`
}

type sarifInvocation struct {
	ExecutionSuccessful        bool                `json:"executionSuccessful"`
	ToolExecutionNotifications []sarifNotification `json:"toolExecutionNotifications,omitempty"`
}

type sarifNotification struct {
	Level   string    `json:"level"`
	Message sarifText `json:"message"`
}

type sarifResult struct {
	RuleID    string          `json:"ruleId"`
	RuleIndex int             `json:"ruleIndex"`
	Level     string          `json:"level"`
	Message   sarifText       `json:"message"`
	Locations []sarifPhysical `json:"locations"`
	Fixes     []sarifFix      `json:"fixes,omitempty"`
	// BaselineState (SARIF 3.27.24) is set on every result of a run
	// with -baseline, and on none without.
	BaselineState string `json:"baselineState,omitempty"`
}

type sarifPhysical struct {
	PhysicalLocation sarifPhysicalLocation `json:"physicalLocation"`
}

type sarifPhysicalLocation struct {
	ArtifactLocation sarifLocation `json:"artifactLocation"`
	Region           sarifRegion   `json:"region"`
}

type sarifLocation struct {
	URI       string `json:"uri"`
	URIBaseID string `json:"uriBaseId,omitempty"`
}

type sarifRegion struct {
	StartLine   int `json:"startLine"`
	StartColumn int `json:"startColumn"`
	EndLine     int `json:"endLine"`
	EndColumn   int `json:"endColumn"`
}

type sarifFix struct {
	Description     sarifText             `json:"description"`
	ArtifactChanges []sarifArtifactChange `json:"artifactChanges"`
}

type sarifArtifactChange struct {
	ArtifactLocation sarifLocation      `json:"artifactLocation"`
	Replacements     []sarifReplacement `json:"replacements"`
}

type sarifReplacement struct {
	DeletedRegion   sarifRegion `json:"deletedRegion"`
	InsertedContent sarifText   `json:"insertedContent"`
}

// sarifInput is what the SARIF log needs besides the findings.
type sarifInput struct {
	suite    suite
	enabled  []*analysis.Analyzer
	wd       string
	problems []string // load and analyzer errors, already formatted
	// severity is an analyzer's severity, its results' level; nil: all
	// "warning".
	severity func(analyzer string) string
	notes    []string // what the user should know of a successful run
	// baselineStates[i] is findings[i]'s baselineState; nil without
	// -baseline.
	baselineStates []string
	// readFile reads sources for UTF-16 column conversion; nil: os.ReadFile.
	readFile func(string) ([]byte, error)
}

// sarifFormat is -f sarif. Its log describes the run as well as its
// findings: the rules enabled, the problems as stderr printed them, and
// with -baseline the findings it hid, as "unchanged" results.
type sarifFormat struct{}

func (sarifFormat) write(w io.Writer, r report) error {
	all, states := r.baseline.sarifFindings(r.findings)
	return writeSARIF(w, all, sarifInput{
		suite: r.suite, enabled: r.enabled, wd: r.wd, problems: r.problemLines, severity: r.severity,
		baselineStates: states, notes: nonEmpty(r.goneNote),
	})
}

func writeSARIF(w io.Writer, findings []finding.Finding, in sarifInput) error {
	run := sarifRun{
		Tool: sarifTool{Driver: sarifDriver{
			Name:            "ctrllint",
			InformationURI:  toolInfoURI,
			Version:         toolSemanticVersion(),
			SemanticVersion: toolSemanticVersion(),
			Rules:           []sarifRule{},
		}},
		Invocations: []sarifInvocation{{ExecutionSuccessful: len(in.problems) == 0}},
		OriginalURIBaseIDs: map[string]sarifLocation{
			srcRoot: {URI: fileURI(in.wd, true)},
		},
		ColumnKind: "utf16CodeUnits",
		Results:    []sarifResult{},
	}
	for _, p := range in.problems {
		run.Invocations[0].ToolExecutionNotifications = append(run.Invocations[0].ToolExecutionNotifications,
			sarifNotification{Level: "error", Message: sarifText{Text: p}})
	}
	level := in.severity
	if level == nil {
		level = func(string) string { return "warning" }
	}
	for _, n := range in.notes {
		run.Invocations[0].ToolExecutionNotifications = append(run.Invocations[0].ToolExecutionNotifications,
			sarifNotification{Level: "note", Message: sarifText{Text: n}})
	}
	ruleIndex := make(map[string]int)
	for _, a := range in.enabled {
		info := in.suite.info(a)
		ruleIndex[a.Name] = len(run.Tool.Driver.Rules)
		run.Tool.Driver.Rules = append(run.Tool.Driver.Rules, sarifRule{
			ID: a.Name,
			// What it reports, readably; SARIF validators warn of a name
			// equal to the id in any case.
			Name:                 info.RuleName,
			ShortDescription:     sarifText{Text: info.Summary},
			FullDescription:      sarifText{Text: firstParagraph(info.Text, info.Summary)},
			HelpURI:              info.URL,
			Help:                 sarifHelp{Text: info.Text, Markdown: info.Markdown},
			DefaultConfiguration: sarifRuleCfg{Level: level(a.Name)},
		})
	}

	cols := newColumnConverter(in.readFile)
	for i, f := range findings {
		idx, ok := ruleIndex[f.Analyzer]
		if !ok {
			continue // cannot happen: findings come from enabled analyzers
		}
		res := sarifResult{
			RuleID:    f.Analyzer,
			RuleIndex: idx,
			Level:     level(f.Analyzer),
			Message:   sarifText{Text: f.Message},
			Locations: []sarifPhysical{{PhysicalLocation: sarifPhysicalLocation{
				ArtifactLocation: artifact(in.wd, f.Pos.File),
				Region:           cols.region(f.Pos, f.End),
			}}},
		}
		if in.baselineStates != nil {
			res.BaselineState = in.baselineStates[i]
		}
		for _, fix := range f.Fixes {
			sf := sarifFix{Description: sarifText{Text: fix.Message}}
			byFile := make(map[string]int)
			for _, e := range fix.Edits {
				i, ok := byFile[e.Pos.File]
				if !ok {
					i = len(sf.ArtifactChanges)
					byFile[e.Pos.File] = i
					sf.ArtifactChanges = append(sf.ArtifactChanges, sarifArtifactChange{ArtifactLocation: artifact(in.wd, e.Pos.File)})
				}
				sf.ArtifactChanges[i].Replacements = append(sf.ArtifactChanges[i].Replacements, sarifReplacement{
					DeletedRegion:   cols.region(e.Pos, e.End),
					InsertedContent: sarifText{Text: e.NewText},
				})
			}
			res.Fixes = append(res.Fixes, sf)
		}
		run.Results = append(run.Results, res)
	}

	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(sarifLog{Schema: sarifSchema, Version: sarifVersion, Runs: []sarifRun{run}})
}

// artifact names file relative to %SRCROOT% (the working directory) when
// it is beneath it, as GitHub code scanning matches results to files in
// the repository by relative path; else by absolute file URI.
func artifact(wd, file string) sarifLocation {
	r, err := filepath.Rel(wd, file)
	if err != nil || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) || filepath.IsAbs(r) {
		return sarifLocation{URI: fileURI(file, false)}
	}
	// String, not EscapedPath: a relative reference whose first segment
	// holds a colon ("a:b.go") reads as a URI of scheme "a" unless
	// written "./a:b.go" (RFC 3986, 4.2), which String does.
	return sarifLocation{URI: (&url.URL{Path: filepath.ToSlash(r)}).String(), URIBaseID: srcRoot}
}

// fileURI is the file: URI of an absolute path; base URIs must end in "/".
func fileURI(path string, dir bool) string {
	p := filepath.ToSlash(path)
	if !strings.HasPrefix(p, "/") {
		p = "/" + p // Windows drive letter
	}
	if dir && !strings.HasSuffix(p, "/") {
		p += "/"
	}
	return (&url.URL{Scheme: "file", Path: p}).String()
}

// firstParagraph is the opening paragraph of an -explain text (the why),
// unwrapped; def when there is none.
func firstParagraph(text, def string) string {
	para, _, _ := strings.Cut(strings.TrimSpace(text), "\n\n")
	para = strings.Join(strings.Fields(para), " ")
	if para == "" {
		return def
	}
	return para
}

// columnConverter turns byte columns into UTF-16 columns, reading each
// file once.
type columnConverter struct {
	readFile func(string) ([]byte, error)
	files    map[string][]byte
}

func newColumnConverter(readFile func(string) ([]byte, error)) *columnConverter {
	if readFile == nil {
		readFile = os.ReadFile
	}
	return &columnConverter{readFile: readFile, files: make(map[string][]byte)}
}

func (c *columnConverter) region(start, end finding.Position) sarifRegion {
	return sarifRegion{
		StartLine:   max(start.Line, 1),
		StartColumn: c.column(start),
		EndLine:     max(end.Line, 1),
		EndColumn:   c.column(end),
	}
}

// column is p's 1-based column in UTF-16 code units, or its byte column
// if the file cannot be read or no longer matches.
func (c *columnConverter) column(p finding.Position) int {
	if p.Column < 1 {
		return 1
	}
	src, ok := c.files[p.File]
	if !ok {
		src, _ = c.readFile(p.File)
		c.files[p.File] = src
	}
	lineStart := p.Offset - (p.Column - 1)
	if src == nil || lineStart < 0 || p.Offset > len(src) {
		return p.Column
	}
	n := 0
	for b := src[lineStart:p.Offset]; len(b) > 0; {
		r, size := utf8.DecodeRune(b)
		n += utf16.RuneLen(r)
		b = b[size:]
	}
	return n + 1
}
