// Package msgtext bounds the text that goes into error messages, for the
// engine's errors and for the packages around it (method, godata) whose
// messages must read, and be cut, exactly as the engine's: a message an
// untrusted template can cause must never carry a large value or a long
// stretch of template text.
package msgtext

import (
	"strconv"
	"strings"
)

// MaxMessage bounds the message length so an error never carries a large
// value or a long stretch of template text.
const MaxMessage = 300

// Bound makes msg one line of at most MaxMessage bytes.
func Bound(msg string) string {
	msg = strings.ReplaceAll(msg, "\n", " ")
	msg = strings.ReplaceAll(msg, "\r", " ")
	if len(msg) > MaxMessage {
		cut := MaxMessage
		for cut > 0 && msg[cut]&0xC0 == 0x80 {
			cut--
		}
		msg = msg[:cut] + "..."
	}
	return msg
}

// Quote bounds a user-controlled name for inclusion in a message.
func Quote(s string) string {
	if len(s) > 40 {
		cut := 40
		for cut > 0 && s[cut]&0xC0 == 0x80 {
			cut--
		}
		s = s[:cut] + "..."
	}
	return strconv.Quote(s)
}
