package method

import (
	"encoding/base64"
	"io/fs"
	"net/url"
	"path"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/jinjabox/jinjabox/engine/value"
)

// RequestExtract is a PipeExtract request: read a document into pages.
const RequestExtract = "extract"

// RequestExt are the request fields of Pipelex method files, embedded in
// CompletionRequest (flat in JSON, all omitted when empty so requests of
// JSON bundles encode as before).
type RequestExt struct {
	// Model is the resolved model (empty: the provider's default);
	// ModelRef the reference as written; Fallbacks a waterfall's rest.
	Model         string         `json:"model,omitempty"`
	ModelRef      string         `json:"model_ref,omitempty"`
	Fallbacks     []string       `json:"fallbacks,omitempty"`
	ModelSettings map[string]any `json:"model_settings,omitempty"`

	// Judge (method-file shape): the rendered evidence, the question
	// asked (one request per question) and the output field it fills.
	Evidence      string            `json:"evidence,omitempty"`
	Question      string            `json:"question,omitempty"`
	QuestionField string            `json:"question_field,omitempty"`
	Criteria      map[string]string `json:"criteria,omitempty"`
	Threshold     float64           `json:"threshold,omitempty"`

	// Image generation.
	AspectRatio string `json:"aspect_ratio,omitempty"`
	Size        string `json:"size,omitempty"`

	// Search.
	FromDate       string   `json:"from_date,omitempty"`
	ToDate         string   `json:"to_date,omitempty"`
	IncludeDomains []string `json:"include_domains,omitempty"`
	ExcludeDomains []string `json:"exclude_domains,omitempty"`
	IncludeImages  bool     `json:"include_images,omitempty"`

	// Extraction.
	Document      *DocumentRef `json:"document,omitempty"`
	MaxPageImages int          `json:"max_page_images,omitempty"`
	PageViews     bool         `json:"page_views,omitempty"`
}

// DocumentRef is the document a PipeExtract reads.
type DocumentRef struct {
	URL      string `json:"url"`
	MimeType string `json:"mime_type,omitempty"`
}

// UnsupportedError is a provider refusing a request it cannot serve,
// naming the pipe: the local provider has no image model, no web search
// and no PDF or image reader.
type UnsupportedError struct {
	Pipe   string
	Kind   string
	Reason string
}

func (e *UnsupportedError) Error() string {
	return "pipe " + strconv.Quote(e.Pipe) + ": unsupported " + e.Kind + " request: " + e.Reason
}

// maxLocalDocument bounds what the local provider reads (16 MiB).
const maxLocalDocument = 16 << 20

// textMimes are the document types read as text, by extension.
var textExts = map[string]string{
	".txt": "text/plain", ".text": "text/plain", ".md": "text/markdown", ".markdown": "text/markdown",
	".csv": "text/csv", ".tsv": "text/tab-separated-values", ".json": "application/json",
	".html": "text/html", ".htm": "text/html", ".xml": "application/xml", ".log": "text/plain",
}

func isTextMime(m string) bool {
	m = strings.TrimSpace(strings.ToLower(m))
	if i := strings.IndexByte(m, ';'); i >= 0 {
		m = strings.TrimSpace(m[:i])
	}
	return strings.HasPrefix(m, "text/") || m == "application/json" || m == "application/xml" || m == "application/x-ndjson"
}

// extractLocal reads a text document (a data: URL, or a path in files)
// and splits it into pages at form feeds, which is how plain-text
// exports mark page breaks. Anything else is refused.
func extractLocal(files fs.FS, req CompletionRequest) (CompletionResponse, error) {
	refuse := func(reason string) (CompletionResponse, error) {
		return CompletionResponse{}, &UnsupportedError{Pipe: req.Pipe, Kind: req.Kind, Reason: reason}
	}
	d := req.Document
	if d == nil || d.URL == "" {
		return refuse("the document has no url")
	}
	var data []byte
	mime := d.MimeType
	switch {
	case strings.HasPrefix(d.URL, "data:"):
		meta, payload, ok := strings.Cut(d.URL[len("data:"):], ",")
		if !ok {
			return refuse("malformed data: URL")
		}
		if mime == "" {
			mime = strings.TrimSuffix(meta, ";base64")
		}
		if strings.HasSuffix(meta, ";base64") {
			b, err := base64.StdEncoding.DecodeString(payload)
			if err != nil {
				return refuse("data: URL is not valid base64")
			}
			data = b
		} else {
			s, err := url.PathUnescape(payload)
			if err != nil {
				return refuse("data: URL is not valid percent-encoding")
			}
			data = []byte(s)
		}
	case strings.Contains(d.URL, "://") && !strings.HasPrefix(d.URL, "file://"):
		return refuse("the local provider reads no network documents (" + summary(d.URL) + ")")
	default:
		p := strings.TrimPrefix(d.URL, "file://")
		if mime == "" {
			mime = textExts[strings.ToLower(path.Ext(p))]
		}
		if !isTextMime(mime) {
			break // refused below, before reading
		}
		if files == nil {
			return refuse("the local provider was given no directory to read documents from")
		}
		p = path.Clean(strings.TrimPrefix(p, "/"))
		if !fs.ValidPath(p) {
			return refuse("document path " + strconv.Quote(d.URL) + " leaves the documents directory")
		}
		st, err := fs.Stat(files, p)
		if err != nil {
			return refuse("cannot read " + strconv.Quote(d.URL) + ": " + err.Error())
		}
		if st.Size() > maxLocalDocument {
			return refuse("document is larger than 16 MiB")
		}
		b, err := fs.ReadFile(files, p)
		if err != nil {
			return refuse("cannot read " + strconv.Quote(d.URL) + ": " + err.Error())
		}
		data = b
	}
	if !isTextMime(mime) {
		if mime == "" {
			mime = "an unknown type"
		}
		return refuse("the local provider extracts text documents only, not " + mime)
	}
	if len(data) > maxLocalDocument {
		return refuse("document is larger than 16 MiB")
	}
	if !utf8.Valid(data) {
		return refuse("the document is not UTF-8 text")
	}
	text := strings.ReplaceAll(string(data), "\r\n", "\n")
	var pages []any
	for _, pg := range strings.Split(text, "\f") {
		pg = strings.Trim(pg, "\n")
		tai := &value.OrderedMap{Keys: []string{"text", "images"}, Values: []any{orderedOf("text", pg), []any{}}}
		pages = append(pages, orderedOf("text_and_images", tai))
	}
	if ParseConceptSpec(req.Output).Name == ConceptText || !ParseConceptSpec(req.Output).List && req.Output != "" {
		return CompletionResponse{Text: strings.Trim(strings.ReplaceAll(text, "\f", "\n\n"), "\n")}, nil
	}
	return CompletionResponse{Object: pages}, nil
}

// localList answers a list output: count items (2 when any length goes),
// texts or objects of the declared fields.
func localList(req CompletionRequest, h string, n uint64, count int) CompletionResponse {
	if count <= 0 {
		count = 2
	}
	items := make([]any, count)
	for i := range items {
		if len(req.Fields) > 0 {
			items[i] = localObject(req.Fields, h[i%32:], n>>(uint(i)%32))
			continue
		}
		items[i] = "[local " + h[:12] + " #" + strconv.Itoa(i+1) + "] " + summary(req.Prompt)
	}
	return CompletionResponse{Object: items}
}
