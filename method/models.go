package method

import (
	"strconv"
	"strings"
)

// Model references, as Pipelex method files write them:
//
//	$preset     a named preset of the model-provider configuration
//	@alias      a named alias
//	~waterfall  an ordered list of models, tried in turn by the provider
//	id          a model id, used as it is
//
// ModelConfig is that configuration; the runner resolves each pipe's
// reference through it before calling the provider.

// ModelConfig maps model references to model ids. A preset or alias may
// point at another reference ("$writing" -> "@default-large").
type ModelConfig struct {
	Presets    map[string]string   `json:"presets,omitempty"`
	Aliases    map[string]string   `json:"aliases,omitempty"`
	Waterfalls map[string][]string `json:"waterfalls,omitempty"`
}

// ModelChoice is a resolved reference: the model to call first and, for
// a waterfall, the ones to fall back to in order.
type ModelChoice struct {
	Model     string   `json:"model"`
	Fallbacks []string `json:"fallbacks,omitempty"`
}

// CheckModelRef reports a reference that is not $name, @name, ~name or a
// plain model id (no spaces, no control characters).
func CheckModelRef(ref string) error {
	name := ref
	if ref != "" && strings.ContainsRune("$@~", rune(ref[0])) {
		name = ref[1:]
	}
	if name == "" {
		return errorf("empty model reference %q", ref)
	}
	for _, r := range name {
		if r <= ' ' || r == 0x7f || strings.ContainsRune("$@~\"'", r) {
			return errorf("malformed model reference %q", ref)
		}
	}
	return nil
}

// Resolve turns a reference into a model choice. An unknown preset,
// alias or waterfall is an error naming it; a plain id is itself.
func (c *ModelConfig) Resolve(ref string) (ModelChoice, error) {
	return c.resolve(ref, 0)
}

func (c *ModelConfig) resolve(ref string, depth int) (ModelChoice, error) {
	if err := CheckModelRef(ref); err != nil {
		return ModelChoice{}, err
	}
	if depth > 8 {
		return ModelChoice{}, errorf("model reference %q: references nest deeper than 8 (a cycle?)", ref)
	}
	name := ref[1:]
	var table map[string]string
	kind := ""
	switch ref[0] {
	case '$':
		table, kind = c.Presets, "preset"
	case '@':
		table, kind = c.Aliases, "alias"
	case '~':
		list, ok := c.Waterfalls[name]
		if !ok || len(list) == 0 {
			return ModelChoice{}, errorf("unknown model waterfall %q", ref)
		}
		var out ModelChoice
		for i, r := range list {
			mc, err := c.resolve(r, depth+1)
			if err != nil {
				return ModelChoice{}, errorf("model waterfall %q, entry %d: %v", ref, i, err)
			}
			if i == 0 {
				out.Model = mc.Model
			} else {
				out.Fallbacks = append(out.Fallbacks, mc.Model)
			}
			out.Fallbacks = append(out.Fallbacks, mc.Fallbacks...)
		}
		return out, nil
	default:
		return ModelChoice{Model: ref}, nil
	}
	target, ok := table[name]
	if !ok {
		return ModelChoice{}, errorf("unknown model %s %s", kind, strconv.Quote(ref))
	}
	return c.resolve(target, depth+1)
}
