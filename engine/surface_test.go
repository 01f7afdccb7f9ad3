package engine

import (
	"testing"
)

// TestDeclaredSurfaceEveryPath holds P12 on every lookup path: a declared
// surface's metadata names read the same by dot, bracket, |attr,
// attribute-path arguments (map, sort, groupby, selectattr, sum, runtime
// names) and format fields; they are refused on anything that is not such
// a surface; a method the host type has but the surface does not declare
// is security by any path, where another unknown name is undefined.
func TestDeclaredSurfaceEveryPath(t *testing.T) {
	note := newTestSurface("note", "note_id", "text", "hello", "items", 3)
	data := map[string]any{"note": note, "k": "_surface_tag", "d": map[string]any{"_surface_tag": 1}}
	runSandboxCases(t, Options{}, []sandboxCase{
		{"dot", "{{ note._surface_tag }}", data, 0, "note"},
		{"attr-filter", "{{ note|attr('_surface_id') }}", data, 0, "note_id"},
		{"map-attribute", "{{ [note]|map(attribute='_surface_tag')|list }}", data, 0, "['note']"},
		{"map-attribute-runtime", "{{ [note]|map(attribute=k)|list }}", data, 0, "['note']"},
		{"sort-attribute", "{{ [note, note]|sort(attribute='_surface_id')|length }}", data, 0, "2"},
		{"groupby", "{{ [note]|groupby('_surface_tag')|map('first')|list }}", data, 0, "['note']"},
		{"selectattr", "{{ [note]|selectattr('_surface_id', 'eq', 'note_id')|list|length }}", data, 0, "1"},
		{"format-attr", "{{ '{0._surface_tag}'.format(note) }}", data, 0, "note"},
		{"format-item", "{{ '{0[_surface_id]}'.format(note) }}", data, 0, "note_id"},
		{"format-map", "{{ '{_surface_tag}'.format_map(note) }}", data, 0, "note"},
		{"content-field-beats-host-method", "{{ note.items }}", data, 0, "3"},
		{"plain-unknown-undefined", "[{{ note.other }}]", data, 0, "[]"},
		{"map-attribute-on-dict", "{{ [d]|map(attribute='_surface_tag')|list }}", data, KindSecurity, ""},
		{"map-attribute-runtime-on-dict", "{{ [d]|map(attribute=k)|list }}", data, KindSecurity, ""},
		{"format-attr-on-dict", "{{ '{0._surface_tag}'.format(d) }}", data, KindSecurity, ""},
		{"dot-on-undefined", "{{ nope._surface_tag }}", data, KindSecurity, ""},
		{"undeclared-method-dot", "{{ note.host_method }}", data, KindSecurity, ""},
		{"undeclared-method-bracket", "{{ note['host_method'] }}", data, KindSecurity, ""},
		{"undeclared-method-attr-filter", "{{ note|attr('host_method') }}", data, KindSecurity, ""},
		{"undeclared-method-path", "{{ [note]|map(attribute='model_dump')|list }}", data, KindSecurity, ""},
		{"undeclared-method-format", "{{ '{0.model_dump}'.format(note) }}", data, KindSecurity, ""},
		{"undeclared-underscore", "{{ [note]|map(attribute='_surface')|list }}", data, KindSecurity, ""},
	})
}

// TestNestedFilterArgsChecked holds P4 through map's nested filter: the
// arguments map hands to the filter it names are literal attribute names
// too, refused before rendering even in a branch that never runs.
func TestNestedFilterArgsChecked(t *testing.T) {
	runSandboxCases(t, Options{}, []sandboxCase{
		{"map-attr", "{% if false %}{{ x|map('attr', '_a') }}{% endif %}ok", nil, KindSecurity, ""},
		{"map-map-attr", "{% if false %}{{ x|map('map', 'attr', '_a') }}{% endif %}ok", nil, KindSecurity, ""},
		{"map-sort-attribute", "{% if false %}{{ x|map('sort', attribute='_a') }}{% endif %}ok", nil, KindSecurity, ""},
		{"map-groupby", "{% if false %}{{ x|map('groupby', 'a._b') }}{% endif %}ok", nil, KindSecurity, ""},
		{"map-attr-plain", "{{ [{'a': 1}]|map('attr', 'a')|list }}", nil, 0, "[Undefined]"},
		{"map-upper-underscore-data", "{{ ['_a']|map('upper')|list }}", nil, 0, "['_A']"},
	})
}
