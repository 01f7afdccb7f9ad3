package methodfile

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/jinjabox/jinjabox/method"
)

// Extensions this package loads as TOML method files.
var Extensions = []string{".mthds", ".plx", ".toml"}

// IsMethodFile reports whether path has a method-file extension.
func IsMethodFile(path string) bool {
	return slices.Contains(Extensions, strings.ToLower(filepath.Ext(path)))
}

// Options are what a load validates against, where it looks, and the
// entry point.
type Options struct {
	// Models, when set, must resolve every model reference.
	Models *method.ModelConfig
	// Funcs, when set, must hold every PipeFunc's function_name
	// (method.ValidateOptions.Funcs).
	Funcs *method.FuncRegistry
	// Pipe, when set, is the pipe a run starts from (Pipelex's --pipe): a
	// bare code, matched across the library's domains, or
	// "domain.code". Otherwise the first target's main_pipe is.
	Pipe string
	// LibraryDirs are Pipelex's -L directories: every .mthds file (and
	// legacy .plx file) beneath each loads into the library beside the
	// targets.
	LibraryDirs []string
	// MethodsDirs, when set, are the only directories installed methods
	// are looked for in; nil means Pipelex's places (methodsDirs).
	MethodsDirs []string
}

// Loaded is a loaded library.
type Loaded struct {
	Library *method.Library
	// Report holds every problem, errors and warnings, each placed in its
	// file; Report.Err is nil when the library is valid.
	Report *method.Report
	// Targets are the bundles the paths named, in order.
	Targets []*method.Bundle
}

// Signatures are the library's own PipeSignatures: valid, not runnable.
func (ld *Loaded) Signatures() []*method.PipeEntry {
	var out []*method.PipeEntry
	for _, e := range ld.Library.Pipes() {
		if e.Address == "" && e.Pipe.Type == "" {
			out = append(out, e)
		}
	}
	return out
}

// TargetError is a path that names no bundle to load: missing, not a
// method file, or a directory without exactly one bundle. Pipelex exits
// 2 on these; a library that loads but is invalid exits 1.
type TargetError struct {
	Path    string
	Message string
}

func (e *TargetError) Error() string { return e.Path + ": " + e.Message }

// LoadFile loads one method file (TOML by its extension, JSON otherwise)
// as a library with the default options, and validates it. On problems
// it returns them all (list them with method.Problems) and the library
// as far as it loaded: run a library only when the error is nil.
func LoadFile(path string) (*method.Library, error) {
	return LoadFileWith(path, Options{})
}

// LoadFileWith is LoadFile with options.
func LoadFileWith(path string, opts Options) (*method.Library, error) {
	ld, err := LoadLibrary([]string{path}, opts)
	if err != nil {
		return nil, err
	}
	return ld.Library, ld.Report.Err()
}

// LoadLibrary loads the bundles that paths name (method files, or
// directories holding bundle.mthds or a single .mthds), the library
// directories and the installed methods they reference, assembles them
// into one library and validates it. The error is a *TargetError (or an
// I/O error) when a path cannot be loaded at all; problems of the
// library are in the report.
func LoadLibrary(paths []string, opts Options) (*Loaded, error) {
	if len(paths) == 0 {
		return nil, &TargetError{Message: "no method to load"}
	}
	var targets []string
	dirs := slices.Clone(opts.LibraryDirs)
	for _, p := range paths {
		file, libDir, err := resolveTarget(p)
		if err != nil {
			return nil, err
		}
		targets = append(targets, file)
		if libDir != "" {
			dirs = append([]string{libDir}, dirs...)
		}
	}
	s := &session{opts: opts, files: map[string]*loader{}, seen: map[string]bool{}}
	ld := &Loaded{Report: &method.Report{}}
	for _, t := range targets {
		b, err := s.file(t)
		if err != nil {
			return nil, err
		}
		if b != nil {
			ld.Targets = append(ld.Targets, b)
		}
	}
	var own []*method.Bundle
	own = append(own, ld.Targets...)
	for _, d := range dirs {
		files, err := methodFiles(d)
		if err != nil {
			return nil, &TargetError{Path: d, Message: "cannot read library directory: " + err.Error()}
		}
		for _, f := range files {
			b, err := s.file(f)
			if err != nil {
				return nil, err
			}
			if b != nil {
				own = append(own, b)
			}
		}
	}
	s.assemble(ld, own, targets)
	return ld, nil
}

// Load loads one method file from memory (name is its path, in
// problems: TOML by its extension, JSON otherwise) as a library of its
// own, validated. Installed methods are looked for in opts.MethodsDirs
// only (nil: none). Like LoadFile, the error lists every problem.
func Load(name string, data []byte, opts Options) (*method.Library, error) {
	if opts.MethodsDirs == nil {
		opts.MethodsDirs = []string{}
	}
	s := &session{opts: opts, files: map[string]*loader{}, seen: map[string]bool{}}
	ld := &Loaded{Report: &method.Report{}}
	b := s.parse(name, data)
	var own []*method.Bundle
	if b != nil {
		ld.Targets, own = []*method.Bundle{b}, []*method.Bundle{b}
	}
	s.assemble(ld, own, []string{name})
	return ld.Library, ld.Report.Err()
}

// assemble builds the library of the own bundles and the methods they
// reference, picks the entry pipe, validates, and places every problem.
func (s *session) assemble(ld *Loaded, own []*method.Bundle, targets []string) {
	opts := s.opts
	methods, missing := s.installed(own, targets)
	lib := method.NewLibrary(own, methods...)
	lib.Missing = missing
	for _, l := range s.order {
		ld.Report.Add(l.probs...)
	}
	switch {
	case opts.Pipe != "":
		if e, err := lib.EntryPipe(opts.Pipe); err != nil {
			ld.Report.Add(&method.Problem{Field: "pipe", Code: method.CodeUnknownPipe, Message: err.Error()})
		} else {
			lib.Main = e.Ref
		}
	case len(ld.Targets) > 0:
		lib.Main = lib.MainOf(ld.Targets[0])
	}
	ld.Library = lib
	report := lib.Validate(method.ValidateOptions{Models: opts.Models, Funcs: opts.Funcs})
	for _, p := range report.Problems {
		if s.reported(p) {
			continue // the loader already explained this field
		}
		if l := s.files[p.File]; l != nil {
			l.place(p)
		} else if p.Line > 0 && p.File != "" {
			// A JSON bundle: the position is in the template, not the file.
			p.Message = fmt.Sprintf("%s (template line %d, col %d)", p.Message, p.Line, p.Col)
			p.Line, p.Col = 0, 0
		}
		ld.Report.Add(p)
	}
	method.SortByPosition(ld.Report.Problems)
}

// resolveTarget finds the bundle a path names: the file itself, or in a
// directory bundle.mthds, else its only .mthds (Pipelex's directory
// mode, which also loads the directory as a library directory).
func resolveTarget(p string) (file, libDir string, err error) {
	st, err := os.Stat(p)
	if err != nil {
		if os.IsNotExist(err) {
			return "", "", &TargetError{Path: p, Message: "no such file or directory"}
		}
		return "", "", err
	}
	if !st.IsDir() {
		if !IsMethodFile(p) && !strings.EqualFold(filepath.Ext(p), ".json") {
			return "", "", &TargetError{Path: p, Message: "is not a method file (.mthds, .plx, .json) or a directory"}
		}
		return p, "", nil
	}
	// The .mthds files decide; a directory of the older format alone is
	// read the same way (bundle.plx, else its only .plx), with the legacy
	// notice every .plx file gets.
	for _, ext := range []string{".mthds", ".plx"} {
		if b := filepath.Join(p, "bundle"+ext); fileExists(b) {
			return b, p, nil
		}
		matches, _ := filepath.Glob(filepath.Join(p, "*"+ext))
		switch len(matches) {
		case 0:
			continue
		case 1:
			return matches[0], p, nil
		}
		names := make([]string, len(matches))
		for i, m := range matches {
			names[i] = filepath.Base(m)
		}
		return "", "", &TargetError{Path: p, Message: "several " + ext + " files (" + strings.Join(names, ", ") +
			") and no bundle" + ext + ": pass the file, e.g. " + filepath.Join(p, names[0])}
	}
	return "", "", &TargetError{Path: p, Message: "no .mthds bundle file found in the directory"}
}

func fileExists(p string) bool {
	st, err := os.Stat(p)
	return err == nil && !st.IsDir()
}

// session is one LoadLibrary: the files read so far.
type session struct {
	opts  Options
	files map[string]*loader // by source name
	order []*loader
	seen  map[string]bool // absolute paths loaded
}

// file loads one method file once (nil when it was already loaded).
func (s *session) file(path string) (*method.Bundle, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	if s.seen[abs] {
		return nil, nil
	}
	s.seen[abs] = true
	data, err := os.ReadFile(path)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, &TargetError{Path: path, Message: "no such file"}
		}
		return nil, err
	}
	return s.parse(path, data), nil
}

// parse converts one file's data (nil when it does not convert).
func (s *session) parse(path string, data []byte) *method.Bundle {
	if !IsMethodFile(path) {
		b, err := method.LoadBundle(data)
		l := &loader{file: path, at: map[string]fieldPos{}}
		s.files[path], s.order = l, append(s.order, l)
		if err != nil {
			l.probs = append(l.probs, &method.Problem{File: path, Code: method.CodeInvalidMethod, Message: err.Error()})
			return nil
		}
		b.Source = path
		return b
	}
	b, l := parseBundle(path, data)
	s.files[path], s.order = l, append(s.order, l)
	return b
}

// reported reports whether the loader already explained a problem's
// field (a validation problem there would repeat it).
func (s *session) reported(p *method.Problem) bool {
	l := s.files[p.File]
	if l == nil || p.Severity != method.SeverityError {
		return false
	}
	for _, q := range l.probs {
		if q.Pipe == p.Pipe && q.Field == p.Field && q.Pipe+q.Field != "" {
			return true
		}
	}
	return false
}

// installed loads the methods the bundles reference: by address from the
// methods directories, and the local-path dependencies of the targets'
// package (METHODS.toml). It returns the addresses it could not find.
func (s *session) installed(own []*method.Bundle, targets []string) ([]*method.InstalledMethod, []string) {
	var out []*method.InstalledMethod
	var missing []string
	loaded := map[string]bool{}
	load := func(dir, address, name string, m *Manifest) {
		files, err := methodFiles(dir)
		if err != nil {
			return
		}
		im := &method.InstalledMethod{Address: address, Name: name}
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				continue
			}
			b, l := parseBundle(f, data)
			if b == nil || len(l.probs) > 0 {
				continue // Pipelex: an unparseable dependency bundle is a warning there
			}
			im.Bundles = append(im.Bundles, b)
		}
		im.Exports = exportsOf(m, im.Bundles)
		out = append(out, im)
	}
	// Local-path dependencies of the package the first target is in.
	if len(targets) > 0 {
		if root, m := findManifest(filepath.Dir(targets[0])); m != nil {
			for _, alias := range sortedCodes(m.Dependencies) {
				d := m.Dependencies[alias]
				if d.Path == "" {
					continue // Pipelex: no local path, no local resolution
				}
				dir := filepath.Join(root, d.Path)
				dm, _ := readManifest(dir)
				load(dir, d.Address, alias, dm)
				loaded[strings.ToLower(alias)] = true
			}
		}
	}
	dirs := methodsDirs(s.opts, targets)
	queue := own
	for len(queue) > 0 {
		var next []*method.Bundle
		for _, addr := range addressRefs(queue) {
			key := strings.ToLower(addr)
			if loaded[key] {
				continue
			}
			loaded[key] = true
			dir, m := findInstalled(dirs, addr)
			if m == nil {
				if strings.Contains(addr, "/") {
					missing = append(missing, addr)
				}
				continue
			}
			load(dir, addr, m.Package.Name, m)
			next = append(next, out[len(out)-1].Bundles...)
		}
		queue = next
	}
	slices.Sort(missing)
	return out, missing
}

// addressRefs lists the package aliases ("github.com/org/repo/name",
// or a dependency alias) the bundles' pipes reference, sorted.
func addressRefs(bundles []*method.Bundle) []string {
	var out []string
	for _, b := range bundles {
		for _, code := range sortedCodes(b.Pipes) {
			for _, ref := range method.PipeCalls(b.Pipes[code]) {
				if i := strings.LastIndex(ref, "->"); i > 0 {
					out = append(out, ref[:i])
				}
			}
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}
