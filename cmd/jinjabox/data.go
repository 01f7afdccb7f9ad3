package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/jinjabox/jinjabox/engine/value"
)

// defineFlag is -D/--define, repeatable: KEY=VALUE sets the top-level
// name KEY to the string VALUE, KEY:=JSON to the JSON value (as
// minijinja-cli's --define). Defines apply after the data file, in order.
type defineFlag []string

func (d *defineFlag) String() string { return strings.Join(*d, " ") }

func (d *defineFlag) Set(s string) error {
	if !strings.Contains(s, "=") {
		return errors.New("want KEY=VALUE or KEY:=JSON")
	}
	*d = append(*d, s)
	return nil
}

// apply sets the defines in data.
func (d defineFlag) apply(data map[string]any) error {
	for _, s := range d {
		k, v, _ := strings.Cut(s, "=")
		if strings.HasSuffix(k, ":") {
			k = strings.TrimSuffix(k, ":")
			x, err := value.DecodeJSON([]byte(v))
			if err != nil {
				return fmt.Errorf("--define %s: %v", s, err)
			}
			if k == "" {
				return fmt.Errorf("--define %s: empty key", s)
			}
			data[k] = x
			continue
		}
		if k == "" {
			return fmt.Errorf("--define %s: empty key", s)
		}
		data[k] = v
	}
	return nil
}
