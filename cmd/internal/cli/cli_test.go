package cli

import (
	"flag"
	"reflect"
	"testing"
)

func TestParseInterspersed(t *testing.T) {
	fs := flag.NewFlagSet("x", flag.ContinueOnError)
	a := fs.Bool("a", false, "")
	n := fs.Int("n", 0, "")
	pos, err := ParseInterspersed(fs, []string{"t.j2", "-a", "-", "-n", "3", "--", "-literal"})
	if err != nil {
		t.Fatal(err)
	}
	if !*a || *n != 3 || !reflect.DeepEqual(pos, []string{"t.j2", "-", "-literal"}) {
		t.Errorf("a=%v n=%d pos=%q", *a, *n, pos)
	}
}
