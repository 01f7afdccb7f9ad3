package templating

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/jinjabox/jinjabox/budget"
	"github.com/jinjabox/jinjabox/engine"
	"github.com/jinjabox/jinjabox/engine/value"
	"github.com/jinjabox/jinjabox/internal/msgtext"
)

// ImageRef is one image a prompt references.
type ImageRef struct {
	URL     string `json:"url"`
	Caption string `json:"caption,omitempty"`
}

// ImageRegistry numbers the images of one render (or one pipe run) in
// first-reference order; each URL is registered once. It is per render,
// never shared between renders, so numbering is deterministic.
type ImageRegistry struct {
	images []ImageRef
	index  map[string]int
}

// NewImageRegistry returns an empty registry.
func NewImageRegistry() *ImageRegistry { return &ImageRegistry{index: map[string]int{}} }

// Register adds the image if new and returns its 1-based number.
func (r *ImageRegistry) Register(img ImageRef) int {
	if n, ok := r.index[img.URL]; ok {
		return n
	}
	r.images = append(r.images, img)
	r.index[img.URL] = len(r.images)
	return len(r.images)
}

// Lookup returns the number of a registered URL.
func (r *ImageRegistry) Lookup(url string) (int, bool) {
	n, ok := r.index[url]
	return n, ok
}

// Images returns the registered images in number order (a copy).
func (r *ImageRegistry) Images() []ImageRef {
	return append([]ImageRef(nil), r.images...)
}

// Token is the placeholder a prompt shows for image number n.
func Token(n int) string { return "[Image " + strconv.Itoa(n) + "]" }

// ImageContent is a host image value (Pipelex's ImageContent model): its
// template surface is the fields url and caption; it has no callable
// methods. The pydantic-like host methods are named so that reaching for
// them is a security error rather than a silent undefined.
type ImageContent struct {
	URL     string
	Caption string
}

var imageHostMethods = map[string]bool{
	"model_validate": true, "model_copy": true, "model_dump": true, "model_dump_json": true,
	"model_construct": true, "model_fields": true, "model_extra": true, "model_validate_json": true,
	"render_with_images": true, "rendered_for_template_async": true, "copy": true, "dict": true, "json": true,
}

// TemplateSurface marks ImageContent as a declared surface.
func (*ImageContent) TemplateSurface() {}

// TypeName implements value.ObjectImpl.
func (*ImageContent) TypeName() string { return "ImageContent" }

// Attr implements value.ObjectImpl: url and caption only.
func (im *ImageContent) Attr(c value.Ctx, name string) (value.Value, bool) {
	switch name {
	case "url":
		return value.FromString(im.URL), true
	case "caption":
		if im.Caption == "" {
			return value.NoneValue, true
		}
		return value.FromString(im.Caption), true
	}
	if imageHostMethods[name] {
		failf(engine.KindSecurity, "a template may not read %s on a 'ImageContent' value: templates read data and call methods of plain values only", msgtext.Quote(name))
	}
	return value.Value{}, false
}

// TemplateString prints the image as its URL.
func (im *ImageContent) TemplateString() string { return im.URL }

// imageOf reports whether v is an image by its type: an *ImageContent, or
// an artefact whose concept is Image (content class ImageContent) with a
// string url field. c may be nil when v is known not to be an artefact
// needing a Ctx (it is only used for artefact reads).
func imageOf(c value.Ctx, v value.Value) (ImageRef, bool) {
	if v.Kind() != value.Object {
		return ImageRef{}, false
	}
	switch o := v.ObjectImpl().(type) {
	case *ImageContent:
		return ImageRef{URL: o.URL, Caption: o.Caption}, true
	case *StuffArtefact:
		if c == nil {
			return ImageRef{}, false
		}
		if o.concept != "Image" && o.contentClass != "ImageContent" {
			return ImageRef{}, false
		}
		u, ok := o.Item(c, value.FromString("url"))
		if !ok || !u.IsString() {
			return ImageRef{}, false
		}
		ref := ImageRef{URL: u.Str()}
		if cap, ok := o.Item(c, value.FromString("caption")); ok && cap.IsString() {
			ref.Caption = cap.Str()
		}
		return ref, true
	}
	return ImageRef{}, false
}

// registeredToken returns the placeholder of an image value already in
// the registry.
func (f *filterSet) registeredToken(c value.Ctx, v value.Value) (string, bool) {
	reg := imagesOf(c)
	if reg == nil {
		return "", false
	}
	img, ok := imageOf(c, v)
	if !ok {
		return "", false
	}
	n, ok := reg.Lookup(img.URL)
	if !ok {
		return "", false
	}
	return Token(n), true
}

// withImages is value|with_images(text_format=None): images become
// [Image N] tokens registered once; artefacts and TextRenderable types
// render as text with nested images tokenised; a list renders each item
// on its own line. Anything else does not implement the protocol.
func (f *filterSet) withImages(c value.Ctx, v value.Value, args *value.Args) (value.Value, error) {
	tf, err := f.textFormatArg("with_images", args)
	if err != nil {
		return value.Value{}, err
	}
	reg := imagesOf(c)
	if reg == nil {
		reg = NewImageRegistry() // Pipelex: a temporary registry when the context has none
	}
	if v.IsUndefined() {
		return value.Value{}, undefinedFilterError("with_images", "")
	}
	if v.IsSeq() {
		items := v.Items()
		charge(c, int64(len(items))*budget.Elem, "with_images")
		parts := make([]string, 0, len(items))
		for _, it := range items {
			if s, ok := renderWithImages(c, reg, it, tf); ok {
				parts = append(parts, s)
				continue
			}
			chargeSize(c, it, 2, "with_images")
			parts = append(parts, value.ToString(it))
		}
		return value.FromString(strings.Join(parts, "\n")), nil
	}
	if s, ok := renderWithImages(c, reg, v, tf); ok {
		return value.FromString(s), nil
	}
	return value.Value{}, engine.NewError(engine.KindRender, fmt.Sprintf("a %s value does not implement the ImageRenderable protocol", msgtext.Quote(v.TypeName())))
}

// renderWithImages renders an image-renderable value; ok is false when
// the value's type does not implement the protocol.
func renderWithImages(c value.Ctx, reg *ImageRegistry, v value.Value, tf TextFormat) (string, bool) {
	if img, ok := imageOf(c, v); ok {
		charge(c, budget.Step, "with_images")
		return Token(reg.Register(img)), true
	}
	if v.Kind() != value.Object {
		return "", false
	}
	a, ok := v.ObjectImpl().(*StuffArtefact)
	if !ok {
		return "", false
	}
	names, vals := artefactFields(c, a)
	if t, ok := textOnly(names, vals); ok {
		chargeSize(c, t, 2, "with_images")
		return value.ToString(t), true
	}
	var sb strings.Builder
	for i, n := range names {
		if i > 0 {
			sb.WriteByte('\n')
		}
		if img, ok := imageOf(c, vals[i]); ok {
			sb.WriteString(n + ": " + Token(reg.Register(img)))
			continue
		}
		chargeSize(c, vals[i], 2, "with_images")
		sb.WriteString(n + ": " + value.ToString(vals[i]))
	}
	_ = tf // structured content renders as plain field lines in every format for now
	return sb.String(), true
}
