//go:build unix

package main

import (
	"os"
	"syscall"
)

// canReplace: unix can hand this process over to the companion.
const canReplace = true

// replace execs the companion in place of this process, with args after
// its own name; it returns only the error of a failed execve.
func replace(path string, args []string) error {
	return syscall.Exec(path, append([]string{path}, args...), os.Environ())
}
