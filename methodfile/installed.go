package methodfile

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/pelletier/go-toml/v2"

	"github.com/jinjabox/jinjabox/method"
)

// Installed methods, as Pipelex finds them (pipelex/cli/installed_methods.py
// find_method_by_full_address): a method is a directory with a
// METHODS.toml at its root inside a methods directory; its name is the
// manifest's name, else the directory's; an address reference
// "github.com/org/repo/name->domain.code" names the method whose
// "<address>/<name>" matches, case-insensitively. Its bundles are every
// method file below it.

// MethodsDir is where methods are installed, relative to a project (or
// the home directory).
var MethodsDir = filepath.Join(".mthds", "methods")

// ManifestName is a method package's manifest file.
const ManifestName = "METHODS.toml"

// Manifest is the part of METHODS.toml a load reads.
type Manifest struct {
	Package struct {
		Name     string `toml:"name"`
		Address  string `toml:"address"`
		Version  string `toml:"version"`
		MainPipe string `toml:"main_pipe"`
	} `toml:"package"`
	// Dependencies by alias: a local path loads as the alias's package.
	Dependencies map[string]struct {
		Address string `toml:"address"`
		Version string `toml:"version"`
		Path    string `toml:"path"`
	} `toml:"dependencies"`
	// Exports maps a domain to the pipes other packages may use.
	Exports map[string]struct {
		Pipes []string `toml:"pipes"`
	} `toml:"exports"`
}

// readManifest reads a METHODS.toml (nil when there is none).
func readManifest(dir string) (*Manifest, error) {
	data, err := os.ReadFile(filepath.Join(dir, ManifestName))
	if err != nil {
		if os.IsNotExist(err) {
			return nil, nil
		}
		return nil, err
	}
	var m Manifest
	if err := toml.Unmarshal(data, &m); err != nil {
		return nil, err
	}
	return &m, nil
}

// fullAddress is what an address reference names a method by.
func (m *Manifest) fullAddress(dir string) string {
	name := m.Package.Name
	if name == "" {
		name = filepath.Base(dir)
	}
	return strings.TrimSuffix(m.Package.Address, "/") + "/" + name
}

// methodsDirs are the directories installed methods are looked for in,
// in Pipelex's order: the working directory's .mthds/methods, every
// .mthds/methods above each bundle, then the home directory's.
func methodsDirs(opts Options, sources []string) []string {
	if opts.MethodsDirs != nil {
		return opts.MethodsDirs
	}
	var dirs []string
	add := func(d string) {
		if st, err := os.Stat(d); err == nil && st.IsDir() && !slices.Contains(dirs, d) {
			dirs = append(dirs, d)
		}
	}
	if wd, err := os.Getwd(); err == nil {
		add(filepath.Join(wd, MethodsDir))
	}
	for _, src := range sources {
		abs, err := filepath.Abs(src)
		if err != nil {
			continue
		}
		for d := filepath.Dir(abs); ; d = filepath.Dir(d) {
			add(filepath.Join(d, MethodsDir))
			if filepath.Dir(d) == d {
				break
			}
		}
	}
	if home, err := os.UserHomeDir(); err == nil {
		add(filepath.Join(home, MethodsDir))
	}
	return dirs
}

// findInstalled looks an address up in the methods directories.
func findInstalled(dirs []string, address string) (string, *Manifest) {
	address, _, _ = strings.Cut(address, "@") // a tag does not select the copy
	for _, d := range dirs {
		entries, err := os.ReadDir(d)
		if err != nil {
			continue
		}
		for _, e := range entries {
			if !e.IsDir() || strings.HasPrefix(e.Name(), ".") {
				continue
			}
			dir := filepath.Join(d, e.Name())
			m, err := readManifest(dir)
			if err != nil || m == nil {
				continue
			}
			if strings.EqualFold(m.fullAddress(dir), address) {
				return dir, m
			}
		}
	}
	return "", nil
}

// methodFiles lists the method files below dir, recursively, in path
// order, skipping dot-directories (an installed method's .mthds).
func methodFiles(dir string) ([]string, error) {
	var out []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if p != dir && strings.HasPrefix(d.Name(), ".") {
				return filepath.SkipDir
			}
			return nil
		}
		if ext := filepath.Ext(p); strings.EqualFold(ext, ".mthds") || isLegacy(p) {
			out = append(out, p)
		}
		return nil
	})
	return out, err
}

// findManifest walks up from dir to the METHODS.toml of the package a
// bundle belongs to.
func findManifest(dir string) (string, *Manifest) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", nil
	}
	for d := abs; ; d = filepath.Dir(d) {
		if m, err := readManifest(d); err == nil && m != nil {
			return d, m
		}
		if filepath.Dir(d) == d {
			return "", nil
		}
	}
}

// exportsOf lists a package's exported pipe references ("domain.code"),
// its main pipes included; nil when it declares no exports.
func exportsOf(m *Manifest, bundles []*method.Bundle) []string {
	if m == nil || len(m.Exports) == 0 {
		return nil
	}
	var out []string
	for _, d := range sortedCodes(m.Exports) {
		for _, p := range m.Exports[d].Pipes {
			out = append(out, method.RefOf("", d, p))
		}
	}
	for _, b := range bundles {
		if b.MainPipe != "" {
			out = append(out, method.RefOf("", b.Domain, b.MainPipe))
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}
