//go:build !unix

package main

import "errors"

// canReplace: without execve the companion runs as a child, its stdio
// wired to this process's and its exit code returned (runCompanion).
const canReplace = false

func replace(string, []string) error { return errors.ErrUnsupported }
