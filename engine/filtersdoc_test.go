package engine

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/jinjabox/jinjabox/engine/internal/builtins"
	"github.com/jinjabox/jinjabox/engine/ordered"
)

// docNames are the backticked names of the second column of the table
// headed "| file | filters |" in docs/filters.md, in order, and the
// backticked regex_* names of the text after it.
func docNames(t *testing.T) (table, regex []string) {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("..", "docs", "filters.md"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(raw), "\n")
	start := slices.IndexFunc(lines, func(l string) bool { return strings.HasPrefix(l, "| file | filters |") })
	if start < 0 {
		t.Fatal("docs/filters.md has no table headed | file | filters |")
	}
	tick := regexp.MustCompile("`([a-z_]+)`")
	i := start + 2
	for ; i < len(lines) && strings.HasPrefix(lines[i], "|"); i++ {
		cells := strings.Split(lines[i], "|")
		if len(cells) < 4 {
			t.Fatalf("docs/filters.md:%d: a row of two cells expected", i+1)
		}
		for _, m := range tick.FindAllStringSubmatch(cells[2], -1) {
			table = append(table, m[1])
		}
	}
	for _, m := range regexp.MustCompile("`(regex_[a-z_]+)`").FindAllStringSubmatch(strings.Join(lines[i:], "\n"), -1) {
		if !slices.Contains(regex, m[1]) {
			regex = append(regex, m[1])
		}
	}
	return table, regex
}

// TestFiltersDocCoversRegistry holds docs/filters.md to the registries:
// its table names every built-in filter once and nothing that is not
// one, and its text names every regex filter.
func TestFiltersDocCoversRegistry(t *testing.T) {
	table, regex := docNames(t)
	seen := map[string]bool{}
	for _, n := range table {
		if seen[n] {
			t.Errorf("docs/filters.md names filter %q twice", n)
		}
		seen[n] = true
		if _, ok := builtins.Filters[n]; !ok {
			t.Errorf("docs/filters.md names %q, which is not a built-in filter", n)
		}
	}
	for _, n := range ordered.Keys(builtins.Filters) {
		if !seen[n] {
			t.Errorf("built-in filter %q is missing from docs/filters.md's table", n)
		}
	}
	for _, n := range ordered.Keys(builtins.RegexFilters) {
		if !slices.Contains(regex, n) {
			t.Errorf("regex filter %q is not named in docs/filters.md", n)
		}
	}
	for _, n := range regex {
		if _, ok := builtins.RegexFilters[n]; !ok {
			t.Errorf("docs/filters.md names %q, which is not a regex filter", n)
		}
	}
	if len(table) < 50 {
		t.Fatalf("read %d filter names from docs/filters.md's table (the format changed?)", len(table))
	}
}
