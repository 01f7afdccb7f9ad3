package testsuite

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// goBlock is a fenced Go code block of a Markdown file.
var goBlock = regexp.MustCompile("(?ms)^```go\n(.*?)^```")

// exampleBodies returns the body of every Example function of the module
// (its test files), dedented one tab, by function name.
func exampleBodies(t *testing.T, root string) map[string]string {
	t.Helper()
	bodies := map[string]string{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || d.Name() == "tools" || strings.HasPrefix(d.Name(), ".")) && path != root {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, "_test.go") {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, path, src, parser.ParseComments)
		if err != nil {
			return err
		}
		for _, decl := range f.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok || fn.Recv != nil || !strings.HasPrefix(fn.Name.Name, "Example") || fn.Body == nil {
				continue
			}
			// The text between the braces, comments (the Output lines) included.
			body := string(src[fset.Position(fn.Body.Lbrace).Offset+1 : fset.Position(fn.Body.Rbrace).Offset])
			lines := strings.Split(strings.Trim(body, "\n"), "\n")
			for i, l := range lines {
				lines[i] = strings.TrimPrefix(l, "\t")
			}
			bodies[path+": "+fn.Name.Name] = strings.Join(lines, "\n")
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return bodies
}

// TestReadmeSnippetsAreExamples holds the README's promise that its Go
// snippets are Example functions, which go test compiles and runs and
// whose output it checks: every ```go block must be, byte for byte, the
// body of one of them, with its // Output: line.
func TestReadmeSnippetsAreExamples(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join("..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	bodies := exampleBodies(t, "..")
	blocks := goBlock.FindAllStringSubmatch(string(readme), -1)
	if len(blocks) == 0 {
		t.Fatal("no ```go block in README.md")
	}
	for _, b := range blocks {
		snippet := strings.Trim(b[1], "\n")
		found := ""
		for name, body := range bodies {
			if body == snippet {
				found = name
			}
		}
		if found == "" {
			first, _, _ := strings.Cut(snippet, "\n")
			t.Errorf("README snippet starting %q is not the body of any Example function; make it one (or copy one)", first)
			continue
		}
		if !strings.Contains(snippet, "\n// Output:") {
			// without it go test compiles the example but never runs it
			t.Errorf("README snippet %s has no // Output: line, so go test does not run it", found)
		}
		t.Logf("README snippet = %s", found)
	}
}
