package value

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
)

// DecodeJSON decodes one JSON document keeping the key order of objects
// (as *OrderedMap) and numbers exact (as json.Number), so a template that
// iterates a dict sees Python's insertion order.
func DecodeJSON(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	v, err := decodeAny(dec, 0)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("json: trailing data after the document")
	}
	return v, nil
}

// DecodeJSONObject decodes a JSON object into a map of its top-level keys
// (nested objects keep their order as *OrderedMap).
func DecodeJSONObject(data []byte) (map[string]any, error) {
	v, err := DecodeJSON(data)
	if err != nil {
		return nil, err
	}
	om, ok := v.(*OrderedMap)
	if !ok {
		if v == nil {
			return map[string]any{}, nil
		}
		return nil, errors.New("json: top-level value is not an object")
	}
	//scratch:ok host side: the host's JSON, decoded before any render; the copy-in's ceilings bound what a render takes in
	m := make(map[string]any, len(om.Keys))
	for i, k := range om.Keys {
		m[k] = om.Values[i]
	}
	return m, nil
}

func decodeAny(dec *json.Decoder, depth int) (any, error) {
	if depth > MaxDepth+1 {
		return nil, errors.New("json: nested too deeply")
	}
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '{':
			om := &OrderedMap{}
			idx := map[string]int{}
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return nil, err
				}
				k, _ := kt.(string)
				v, err := decodeAny(dec, depth+1)
				if err != nil {
					return nil, err
				}
				if i, dup := idx[k]; dup {
					om.Values[i] = v
					continue
				}
				idx[k] = len(om.Keys)
				//scratch:ok host side: the host's JSON, decoded before any render; the copy-in's ceilings bound what a render takes in
				om.Keys = append(om.Keys, k)
				//scratch:ok host side: the host's JSON, decoded before any render; the copy-in's ceilings bound what a render takes in
				om.Values = append(om.Values, v)
			}
			_, err := dec.Token()
			return om, err
		case '[':
			arr := []any{}
			for dec.More() {
				v, err := decodeAny(dec, depth+1)
				if err != nil {
					return nil, err
				}
				//scratch:ok host side: the host's JSON, decoded before any render; the copy-in's ceilings bound what a render takes in
				arr = append(arr, v)
			}
			_, err := dec.Token()
			return arr, err
		}
	}
	return tok, nil
}

// MarshalJSON writes the map as a JSON object in its key order.
func (m *OrderedMap) MarshalJSON() ([]byte, error) {
	var buf bytes.Buffer
	buf.WriteByte('{')
	for i, k := range m.Keys {
		if i > 0 {
			buf.WriteByte(',')
		}
		kb, err := json.Marshal(k)
		if err != nil {
			return nil, err
		}
		buf.Write(kb)
		buf.WriteByte(':')
		vb, err := json.Marshal(m.Values[i])
		if err != nil {
			return nil, err
		}
		buf.Write(vb)
	}
	buf.WriteByte('}')
	return buf.Bytes(), nil
}
